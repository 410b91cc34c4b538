import type { JSONSchemaProps } from '../schema/types.js';
import { isJsonObject } from './json.js';

const typeAndObjectMeta = ['apiVersion', 'kind', 'metadata'];

/**
 * What the API server keeps of `value` under `schema`: fields the structural schema does
 * not specify are dropped, unless `x-kubernetes-preserve-unknown-fields` keeps them (and
 * embedded resources always keep `apiVersion`, `kind` and `metadata`). Returns a new value.
 */
export function prune(schema: JSONSchemaProps, value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => (schema.items ? prune(schema.items, item) : item));
  if (!isJsonObject(value)) return value;
  const kept: Record<string, unknown> = {};
  for (const [name, item] of Object.entries(value)) {
    const propertySchema = schema.properties?.[name];
    if (propertySchema) kept[name] = prune(propertySchema, item);
    else if (typeof schema.additionalProperties === 'object') kept[name] = prune(schema.additionalProperties, item);
    else if (
      schema.additionalProperties === true ||
      schema['x-kubernetes-preserve-unknown-fields'] ||
      (schema['x-kubernetes-embedded-resource'] && typeAndObjectMeta.includes(name))
    ) {
      kept[name] = item;
    }
  }
  return kept;
}
