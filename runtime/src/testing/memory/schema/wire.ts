/**
 * CRDs as `readCRDs` returns them (client-node's model classes) turned back into the JSON
 * the API server speaks: client-node renames schema keywords to identifiers
 * (`x_kubernetes_validations`, `_default`, `_enum`, `ref`), and a server that received those
 * names would prune them as unknown fields, dropping every rule and default silently.
 *
 * @module
 */
import { isObject, type Json } from '../../../internal/semantics/types.js';

const RENAMED: Record<string, string> = { _default: 'default', _enum: 'enum', ref: '$ref', schema: '$schema' };

/**
 * A copy of `crd` with its schemas' keywords under their wire names; wire JSON is returned unchanged.
 *
 * @example
 * await transport.request({
 *   method: 'POST',
 *   path,
 *   body: crdToWire(readCRDs('config/crd/bases')[0]),
 * });
 */
export function crdToWire<T>(crd: T): T {
  const copy = structuredClone(crd) as unknown as { spec?: { versions?: Array<{ schema?: { openAPIV3Schema?: Json } }> } };
  for (const version of copy.spec?.versions ?? []) {
    if (version.schema?.openAPIV3Schema !== undefined) version.schema.openAPIV3Schema = schemaToWire(version.schema.openAPIV3Schema);
  }
  return copy as T;
}

function schemaToWire(node: Json): Json {
  if (!isObject(node)) return node;
  const out: { [key: string]: Json } = {};
  for (const [key, value] of Object.entries(node)) {
    if (value === undefined) continue;
    const name = key.startsWith('x_kubernetes_') ? key.replace(/_/g, '-') : (RENAMED[key] ?? key);
    if (name === 'properties' || name === 'patternProperties' || name === 'definitions') {
      out[name] = isObject(value) ? Object.fromEntries(Object.entries(value).map(([property, child]) => [property, schemaToWire(child)])) : value;
    } else if (name === 'items' || name === 'additionalProperties' || name === 'not' || name === 'additionalItems') {
      out[name] = Array.isArray(value) ? value.map(schemaToWire) : schemaToWire(value);
    } else if (name === 'allOf' || name === 'anyOf' || name === 'oneOf') {
      out[name] = Array.isArray(value) ? value.map(schemaToWire) : value;
    } else out[name] = value;
  }
  return out;
}
