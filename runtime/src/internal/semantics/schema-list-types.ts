/**
 * apiextensions-apiserver's rules for `x-kubernetes-list-type`, `x-kubernetes-list-map-keys`
 * and `x-kubernetes-map-type` on one schema node (server-side apply merges by them): the
 * types they need, their values, what a set's items and a map list's keys may be.
 *
 * @module
 */
import { goQuote, goValue } from './paths.js';
import { finding, type Place, type SchemaFinding } from './schema-place.js';
import type { FieldError, SchemaNode } from './types.js';

const LIST_TYPES = ['atomic', 'set', 'map'];
const MAP_TYPES = ['atomic', 'granular'];

/**
 * The list- and map-type findings of one node.
 *
 * @example
 * listTypeFindings({ type: 'object', 'x-kubernetes-list-type': 'set' }, ROOT); // type: must be array if x-kubernetes-list-type is specified
 */
export function listTypeFindings(node: SchemaNode, place: Place): SchemaFinding[] {
  const found: SchemaFinding[] = [];
  const at = (keyword: string, error: Omit<FieldError, 'field'>) => found.push(finding(place, keyword, error));
  const type = (node.type as string | undefined) ?? '';
  const listType = node['x-kubernetes-list-type'] as string | undefined;
  const mapType = node['x-kubernetes-map-type'] as string | undefined;
  const keys = (node['x-kubernetes-list-map-keys'] as string[] | undefined) ?? [];
  const items = node.items;

  if (mapType !== undefined && type !== 'object') at('type', needsType(type, 'must be object if x-kubernetes-map-type is specified'));
  if (mapType !== undefined && !MAP_TYPES.includes(mapType)) at('x-kubernetes-map-type', notSupported(mapType, MAP_TYPES));
  if (listType !== undefined && type !== 'array') at('type', needsType(type, 'must be array if x-kubernetes-list-type is specified'));
  else if (listType === 'set' && items) {
    const itemsListType = items['x-kubernetes-list-type'] as string | undefined;
    // Atomic is what an unset list type means, granular what an unset map type means.
    if (items.type === 'array' && itemsListType !== undefined && itemsListType !== 'atomic') {
      at('items.x-kubernetes-list-type', { type: 'FieldValueInvalid', value: goQuote(itemsListType), detail: 'must be atomic as item of a list with x-kubernetes-list-type=set' });
    }
    if (items.type === 'object' && items['x-kubernetes-map-type'] !== 'atomic') {
      // The API server prints the items' list type here, not their map type.
      at('items.x-kubernetes-map-type', { type: 'FieldValueInvalid', value: goValue(itemsListType ?? null), detail: 'must be atomic as item of a list with x-kubernetes-list-type=set' });
    }
  }
  if (listType !== undefined && !LIST_TYPES.includes(listType)) at('x-kubernetes-list-type', notSupported(listType, LIST_TYPES));
  if (keys.length > 0 && listType !== 'map') {
    at('x-kubernetes-list-type', listType === undefined ? { type: 'FieldValueRequired', detail: 'must be map if x-kubernetes-list-map-keys is non-empty' } : { type: 'FieldValueInvalid', value: goQuote(listType), detail: 'must be map if x-kubernetes-list-map-keys is non-empty' });
  }
  if (listType === 'map') found.push(...mapListFindings(node, place, keys));
  if ((listType === 'set' || listType === 'map') && items) {
    if (items.nullable === true) at('items.nullable', { type: 'FieldValueForbidden', detail: `cannot be nullable when x-kubernetes-list-type is ${listType}` });
    if (listType === 'map') {
      for (const key of keys) {
        const property = items.properties?.[key];
        if (!property) continue;
        if (!(items.required ?? []).includes(key) && property.default === undefined) {
          at(`items.properties[${key}].default`, { type: 'FieldValueRequired', detail: 'this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property' });
        }
        if (property.nullable === true) at(`items.properties[${key}].nullable`, { type: 'FieldValueForbidden', detail: 'this property is in x-kubernetes-list-map-keys, so it cannot be nullable' });
      }
    }
  }
  return found;
}

/** A map list: keys given, items objects, each key a scalar property named once. */
function mapListFindings(node: SchemaNode, place: Place, keys: string[]): SchemaFinding[] {
  const found: SchemaFinding[] = [];
  const at = (keyword: string, error: Omit<FieldError, 'field'>) => found.push(finding(place, keyword, error));
  const items = node.items;
  if (keys.length === 0) at('x-kubernetes-list-map-keys', { type: 'FieldValueRequired', detail: 'must not be empty if x-kubernetes-list-type is map' });
  if (!items) {
    at('items', { type: 'FieldValueRequired', detail: 'must have a schema if x-kubernetes-list-type is map' });
    return found;
  }
  const itemsType = (items.type as string | undefined) ?? '';
  if (itemsType !== 'object') {
    at('items.type', { type: 'FieldValueInvalid', value: goQuote(itemsType), detail: "must be object if parent array's x-kubernetes-list-type is map" });
    return found;
  }
  const seen = new Set<string>();
  for (const key of keys) {
    const property = items.properties?.[key];
    if (!property) at('x-kubernetes-list-map-keys', { type: 'FieldValueInvalid', value: goValue(keys), detail: 'entries must all be names of item properties' });
    else if (property.type === 'array' || property.type === 'object') {
      // The API server prints the items' type here, not the key's.
      at(`items.properties[${key}].type`, { type: 'FieldValueInvalid', value: goQuote(itemsType), detail: "must be a scalar type if parent array's x-kubernetes-list-type is map" });
    }
    if (seen.has(key)) at('x-kubernetes-list-map-keys', { type: 'FieldValueInvalid', value: goValue(keys), detail: 'must not contain duplicate entries' });
    seen.add(key);
  }
  return found;
}

function needsType(type: string, detail: string): Omit<FieldError, 'field'> {
  return type === '' ? { type: 'FieldValueRequired', detail } : { type: 'FieldValueInvalid', value: goQuote(type), detail };
}

function notSupported(value: string, supported: string[]): Omit<FieldError, 'field'> {
  return { type: 'FieldValueNotSupported', value: goQuote(value), detail: `supported values: ${supported.map(goQuote).join(', ')}` };
}
