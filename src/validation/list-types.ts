import type { JSONSchemaProps } from '../schema/types.js';
import type { SchemaProblem } from './path.js';
import { isScalarType } from './shapes.js';

/**
 * The API server's rules for `x-kubernetes-list-type`, `x-kubernetes-list-map-keys` and
 * `x-kubernetes-map-type` on one schema node (server-side apply depends on them).
 */
export function checkListAndMapTypes(schema: JSONSchemaProps, path: string): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  const report = (message: string) => problems.push({ path, message });
  const listType = schema['x-kubernetes-list-type'];
  const mapKeys = schema['x-kubernetes-list-map-keys'];
  const mapType = schema['x-kubernetes-map-type'];
  const items = schema.items;

  if (listType !== undefined) {
    if (!['atomic', 'set', 'map'].includes(listType)) report(`x-kubernetes-list-type must be atomic, set or map, not ${JSON.stringify(listType)}`);
    if (schema.type !== 'array') report('x-kubernetes-list-type may only be used on arrays');
  }
  if (mapType !== undefined) {
    if (!['atomic', 'granular'].includes(mapType)) report(`x-kubernetes-map-type must be atomic or granular, not ${JSON.stringify(mapType)}`);
    if (schema.type !== 'object') report('x-kubernetes-map-type may only be used on objects');
  }
  if (mapKeys !== undefined && listType !== 'map') report('x-kubernetes-list-map-keys may only be used with x-kubernetes-list-type: map');

  if ((listType === 'set' || listType === 'map') && items?.nullable) {
    report(`items of a list with x-kubernetes-list-type: ${listType} must not be nullable`);
  }
  if (listType === 'set' && items) {
    if (items.type === 'array' && items['x-kubernetes-list-type'] !== undefined && items['x-kubernetes-list-type'] !== 'atomic') {
      report('items of a list with x-kubernetes-list-type: set must be scalars or atomic lists');
    }
    if (items.type === 'object' && items['x-kubernetes-map-type'] !== 'atomic') {
      report('object items of a list with x-kubernetes-list-type: set must have x-kubernetes-map-type: atomic');
    }
  }

  if (listType === 'map') {
    if (!mapKeys || mapKeys.length === 0) report('x-kubernetes-list-type: map needs x-kubernetes-list-map-keys');
    if (items && items.type !== 'object') report('items of a list with x-kubernetes-list-type: map must be objects');
    if (items && mapKeys) problems.push(...checkMapKeys(items, mapKeys, path));
  }
  return problems;
}

function checkMapKeys(items: JSONSchemaProps, keys: string[], path: string): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  const seen = new Set<string>();
  for (const key of keys) {
    if (seen.has(key)) problems.push({ path, message: `x-kubernetes-list-map-keys lists ${key} twice` });
    seen.add(key);
    const property = items.properties?.[key];
    if (!property) {
      problems.push({ path, message: `x-kubernetes-list-map-keys entry ${key} is not a property of the items` });
      continue;
    }
    if (!isScalarType(property.type)) {
      problems.push({ path, message: `x-kubernetes-list-map-keys entry ${key} must be a scalar property, not ${property.type}` });
    }
    if (!items.required?.includes(key) && property.default === undefined) {
      problems.push({ path, message: `x-kubernetes-list-map-keys entry ${key} must be required or have a default` });
    }
    if (property.nullable) problems.push({ path, message: `x-kubernetes-list-map-keys entry ${key} must not be nullable` });
  }
  return problems;
}
