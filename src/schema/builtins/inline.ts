import type { JSONSchemaProps } from '../types.js';
import { builtinData, builtinNode } from './data.js';

/**
 * Every node of the data expanded so far, by index. A node's schema depends on its index
 * alone, so a subtree that several types share (ObjectMeta, Container, Quantity's
 * int-or-string) is expanded once and shared by all of them.
 */
const expanded = new Map<number, JSONSchemaProps>();

/**
 * The schema of a built-in type exactly as controller-gen writes it (already flattened by
 * controller-tools when the data were generated), rebuilt from the shared node table, with
 * one deliberate difference (docs/api-types.md): a map list keyed by a field that is neither
 * required nor defaulted (`ServiceAccount.secrets`, flowcontrol conditions) becomes an
 * atomic list, because the API server refuses such a CRD.
 *
 * @returns a deeply frozen schema whose nodes may be shared with other built-in types (see
 *   src/schema/shared.ts).
 * @throws when the data hold no such definition.
 */
export function inlineDefinition(name: string): JSONSchemaProps {
  const root = builtinData().types[name];
  if (root === undefined) throw new Error(`no built-in definition ${name}`);
  return expand(root);
}

function expand(index: number): JSONSchemaProps {
  const known = expanded.get(index);
  if (known) return known;
  const node = builtinNode(index);
  if (!node) throw new Error(`built-in data: no schema node ${index}`);
  const child = (i: unknown) => expand(i as number);
  const schema: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    switch (key) {
      case 'properties':
        schema[key] = Object.freeze(Object.fromEntries(Object.entries(value as Record<string, number>).map(([field, i]) => [field, child(i)])));
        break;
      case 'items':
      case 'not':
        schema[key] = child(value);
        break;
      case 'additionalProperties':
        schema[key] = typeof value === 'number' ? child(value) : value;
        break;
      case 'allOf':
      case 'anyOf':
      case 'oneOf':
        schema[key] = Object.freeze((value as number[]).map(child));
        break;
      default:
        schema[key] = deepFreeze(value);
    }
  }
  const result = Object.freeze(fitMapList(schema as JSONSchemaProps));
  expanded.set(index, result);
  return result;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/** Server-side apply replaces an atomic list as a whole, which is what such a list can support. */
function fitMapList(schema: JSONSchemaProps): JSONSchemaProps {
  const keys = schema['x-kubernetes-list-map-keys'];
  const items = schema.items;
  const present = (key: string) => items?.required?.includes(key) || items?.properties?.[key]?.default !== undefined;
  if (schema['x-kubernetes-list-type'] === 'map' && keys && !keys.every(present)) {
    schema['x-kubernetes-list-type'] = 'atomic';
    delete schema['x-kubernetes-list-map-keys'];
  }
  return schema;
}
