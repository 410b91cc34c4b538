/**
 * apiextensions-apiserver's structural invariants of one node of a CRD schema's structural
 * part (not of its `allOf`/`anyOf`/`oneOf`/`not` clauses): every node has a type unless it
 * is int-or-string or preserves unknown fields, the root is an object without
 * `additionalProperties`, arrays have items, embedded resources are objects with properties,
 * the vendor extensions do not contradict each other, and at the root and in embedded
 * resources `apiVersion`/`kind` are strings and `metadata` an object that restricts only
 * `name` and `generateName` (at the root).
 *
 * @module
 */
import { goQuote } from './paths.js';
import { finding, type Place, type SchemaFinding } from './schema-place.js';
import type { FieldError, SchemaNode } from './types.js';

/** Where a node sits: the root, the items of an array, or a field (property or map value). */
export type Level = 'root' | 'item' | 'field';

const EMPTY_TYPE: Record<Level, string> = {
  root: 'must not be empty at the root',
  item: 'must not be empty for specified array items',
  field: 'must not be empty for specified object fields',
};

/**
 * The structural invariants of `node` itself (its children are the walker's).
 *
 * @example
 * structureFindings({ properties: {} }, ROOT, 'root'); // type: Required value: must not be empty at the root
 */
export function structureFindings(node: SchemaNode, place: Place, level: Level): SchemaFinding[] {
  const found: SchemaFinding[] = [];
  const at = (keyword: string, error: Omit<FieldError, 'field'>) => found.push(finding(place, keyword, error));
  const type = (node.type as string | undefined) ?? '';
  const intOrString = node['x-kubernetes-int-or-string'] === true;
  const preserve = node['x-kubernetes-preserve-unknown-fields'] === true;
  const embedded = node['x-kubernetes-embedded-resource'] === true;

  if (type === 'array' && !node.items) at('items', { type: 'FieldValueRequired', detail: 'must be specified' });
  if (node.additionalProperties !== undefined && level === 'root') at('additionalProperties', { type: 'FieldValueForbidden', detail: 'must not be used at the root' });
  if (intOrString && preserve) at('x-kubernetes-preserve-unknown-fields', { type: 'FieldValueInvalid', value: 'true', detail: 'must be false if x-kubernetes-int-or-string is true' });
  if (intOrString && embedded) at('x-kubernetes-embedded-resource', { type: 'FieldValueInvalid', value: 'true', detail: 'must be false if x-kubernetes-int-or-string is true' });
  if (embedded && type !== 'object') {
    const detail = 'must be object if x-kubernetes-embedded-resource is true';
    at('type', type === '' ? { type: 'FieldValueRequired', detail } : { type: 'FieldValueInvalid', value: goQuote(type), detail });
  } else if (type === '' && !intOrString && !preserve) at('type', { type: 'FieldValueRequired', detail: EMPTY_TYPE[level] });
  if (embedded && node.additionalProperties !== undefined) at('additionalProperties', { type: 'FieldValueForbidden', detail: 'must not be used if x-kubernetes-embedded-resource is set' });
  if (level === 'root' && type !== '' && type !== 'object') at('type', { type: 'FieldValueInvalid', value: goQuote(type), detail: 'must be object at the root' });

  const resource = level === 'root' || embedded;
  for (const name of ['kind', 'apiVersion']) {
    const property = node.properties?.[name];
    if (resource && property && property.type !== 'string') at(`properties[${name}].type`, { type: 'FieldValueInvalid', value: goQuote((property.type as string | undefined) ?? ''), detail: 'must be string' });
  }
  const metadata = node.properties?.metadata;
  if (metadata) {
    if (resource && metadata.type !== 'object') at('properties[metadata].type', { type: 'FieldValueInvalid', value: goQuote((metadata.type as string | undefined) ?? ''), detail: 'must be object' });
    if (level === 'root' && restrictsMore(metadata)) {
      at('properties[metadata]', { type: 'FieldValueForbidden', detail: 'must not specify anything other than name and generateName, but metadata is implicitly specified' });
    }
  }
  if (embedded && !preserve && Object.keys(node.properties ?? {}).length === 0) {
    at('properties', { type: 'FieldValueRequired', detail: 'must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields' });
  }
  return found;
}

/**
 * Whether root `metadata` says more than its type and a schema for name and generateName (its
 * default is refused on its own, as a default in top-level metadata).
 */
function restrictsMore(metadata: SchemaNode): boolean {
  const names = Object.keys(metadata.properties ?? {});
  const onlyNames = names.length > 0 && names.every((name) => name === 'name' || name === 'generateName');
  return Object.keys(metadata).some((keyword) => keyword !== 'type' && keyword !== 'default' && keyword !== 'example' && !(keyword === 'properties' && (onlyNames || names.length === 0)));
}
