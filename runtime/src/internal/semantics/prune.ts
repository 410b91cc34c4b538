/**
 * Pruning as apiextensions-apiserver's decoder does it: fields a structural schema does not
 * specify are dropped, unless the node has `x-kubernetes-preserve-unknown-fields`. The root
 * and embedded resources keep `apiVersion`, `kind` and `metadata` whatever the schema says,
 * their metadata only ObjectMeta's own fields.
 *
 * @module
 */
import { isObject, type Json, type SchemaNode } from './types.js';

const OBJECT_META_FIELDS = new Set([
  'name', 'generateName', 'namespace', 'selfLink', 'uid', 'resourceVersion', 'generation', 'creationTimestamp',
  'deletionTimestamp', 'deletionGracePeriodSeconds', 'labels', 'annotations', 'ownerReferences', 'finalizers', 'managedFields',
]);

/**
 * Drops unknown fields in place; returns the paths dropped (`spec.foo`), sorted, which a
 * request with `fieldValidation=Strict` refuses and `Warn` reports. `resource` false prunes a
 * value below the root (a field's default), where `apiVersion`, `kind` and `metadata` are
 * ordinary fields.
 *
 * @example
 * const dropped = prune(object, schema); // ['spec.typo']
 */
export function prune(object: Json, schema: SchemaNode, resource = true): string[] {
  const dropped: string[] = [];
  pruneNode(object, schema, resource, '', dropped);
  return dropped.sort();
}

function pruneNode(value: Json, schema: SchemaNode | undefined, resource: boolean, path: string, dropped: string[]): void {
  if (Array.isArray(value)) {
    value.forEach((item, i) => pruneNode(item, schema?.items, false, `${path}[${i}]`, dropped));
    return;
  }
  if (!isObject(value)) return;
  const preserve = schema?.['x-kubernetes-preserve-unknown-fields'] === true;
  const embedded = schema?.['x-kubernetes-embedded-resource'] === true;
  const additional = typeof schema?.additionalProperties === 'object' ? schema.additionalProperties : undefined;
  for (const key of Object.keys(value)) {
    const at = path === '' ? key : `${path}.${key}`;
    if ((resource || embedded) && (key === 'apiVersion' || key === 'kind')) continue;
    if ((resource || embedded) && key === 'metadata') {
      if (isObject(value.metadata)) pruneObjectMeta(value.metadata, at, dropped);
      continue;
    }
    const property = schema?.properties?.[key] ?? additional;
    if (property) pruneNode(value[key]!, property, false, at, dropped);
    else if (!preserve && schema?.additionalProperties !== true) {
      delete value[key];
      dropped.push(at);
    }
  }
}

function pruneObjectMeta(metadata: { [key: string]: Json }, path: string, dropped: string[]): void {
  for (const key of Object.keys(metadata)) {
    if (OBJECT_META_FIELDS.has(key)) continue;
    delete metadata[key];
    dropped.push(`${path}.${key}`);
  }
}
