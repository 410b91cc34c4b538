import { resolve, type KindType, type TypeRef, type TypeTable } from './schema.js';

/**
 * A built-in object as the API server stores it after decoding it into its Go type and
 * encoding it again: a null, an empty list, or an empty map (a Go map, not a struct) in a
 * field that may be absent is dropped, as `omitempty` drops it (a ConfigMap created with
 * `data: {}` has no `data`). Scalars are kept: the OpenAPI does not tell a pointer (which
 * keeps `0`, `false`, `""`) from a value.
 *
 * @example
 * goRoundTrip(builtinKindType('v1', 'ConfigMap')!, { metadata: { name: 'a', labels: {} }, data: {} }); // { metadata: { name: 'a' } }
 */
export function goRoundTrip<T>(type: KindType, object: T): T {
  return clean(object, type.root, type.table) as T;
}

function clean(value: unknown, ref: TypeRef, table: TypeTable): unknown {
  const resolved = resolve(ref, table);
  if (resolved.kind === 'list' && Array.isArray(value)) return value.map((item) => clean(item, resolved.type.list, table));
  if (resolved.kind !== 'map' || value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const { fields, values, zero } = resolved.type;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    const childRef = fields?.[key] ?? values;
    if (childRef === undefined) {
      out[key] = child;
      continue;
    }
    if (fields?.[key] !== undefined && !(zero && key in zero) && isOmitted(child, childRef, table)) continue;
    out[key] = clean(child, childRef, table);
  }
  return out;
}

function isOmitted(value: unknown, ref: TypeRef, table: TypeTable): boolean {
  if (value === null) return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value !== 'object') return false;
  const resolved = resolve(ref, table);
  // A Go map (typed values) is omitted when empty; a struct (pointer) stays, even as {}: an
  // object without properties (deduced values) is an empty struct such as subresources.status.
  const { fields, values } = resolved.kind === 'map' ? resolved.type : {};
  return fields === undefined && values !== undefined && values !== 'deduced' && Object.keys(value).length === 0;
}
