import { resolve, type KindType, type TypeRef, type TypeTable } from './schema.js';

/**
 * The object a create is compared with when the server records who set which field: for a
 * built-in kind the Go zero value as JSON (struct fields `{}`, slices and maps without
 * omitempty null, down every struct), for a custom resource `{}`.
 *
 * @example
 * zeroObject(builtinKindType('apps/v1', 'Deployment')!);
 * // { metadata: {}, spec: { strategy: {}, template: {...} }, status: {} }
 */
export function zeroObject(type: KindType): Record<string, unknown> {
  return zeroOf(type.root, type.table, 0) ?? {};
}

function zeroOf(ref: TypeRef, table: TypeTable, depth: number): Record<string, unknown> | undefined {
  const resolved = resolve(ref, table);
  if (resolved.kind !== 'map' || !resolved.type.zero || depth > 32) return undefined;
  const out: Record<string, unknown> = {};
  for (const [field, zero] of Object.entries(resolved.type.zero)) {
    const fieldRef = resolved.type.fields?.[field];
    out[field] = zero === null || fieldRef === undefined ? zero : (zeroOf(fieldRef, table, depth + 1) ?? {});
  }
  return out;
}
