/**
 * Defaulting as apiextensions-apiserver does it after pruning, on request bodies and on
 * objects read from storage: a `null` in a field that is not nullable is replaced by the
 * field's default, or dropped when it has none; an absent field with a default gets a copy of
 * it; then the children (defaulted ones included) are defaulted in turn.
 *
 * @module
 */
import { isObject, type Json, type SchemaNode } from './types.js';

/**
 * Applies `schema`'s defaults to `value` in place. `dropNulls` false keeps a non-nullable
 * null that has no default (structural defaulting alone, without the codec's pruning of
 * such nulls: what an applied object gets).
 *
 * @example
 * applyDefaults(object, schema); // spec.replicas: 1 where it was missing
 */
export function applyDefaults(value: Json, schema: SchemaNode | undefined, dropNulls = true): void {
  if (!schema) return;
  if (Array.isArray(value)) {
    if (schema.items) for (const item of value) applyDefaults(item, schema.items, dropNulls);
    return;
  }
  if (!isObject(value)) return;
  const additional = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    if (value[name] === null && property.nullable !== true) {
      if (property.default !== undefined) value[name] = structuredClone(property.default) as Json;
      else if (dropNulls) delete value[name];
    } else if (!(name in value) && property.default !== undefined) {
      value[name] = structuredClone(property.default) as Json;
    }
  }
  for (const [name, child] of Object.entries(value)) {
    const property = schema.properties?.[name] ?? additional;
    if (!property) continue;
    if (child === null && additional && property === additional && additional.nullable !== true) {
      if (additional.default !== undefined) value[name] = structuredClone(additional.default) as Json;
      else if (dropNulls) delete value[name];
      continue;
    }
    applyDefaults(child, property, dropNulls);
  }
}
