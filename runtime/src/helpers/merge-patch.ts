/**
 * The JSON merge patch (RFC 7386) that turns `from` into `to`: changed keys with their new
 * value, removed keys as `null`, unchanged keys left out; objects are compared key by key,
 * arrays and scalars as wholes. `undefined` when nothing changed.
 */
export function mergePatchBetween(from: unknown, to: unknown): Record<string, unknown> | undefined {
  if (!isPlainObject(from) || !isPlainObject(to)) throw new Error('a merge patch is computed between two objects');
  const patch: Record<string, unknown> = {};
  for (const key of Object.keys(to)) {
    const next = to[key];
    if (next === undefined) continue;
    const previous = from[key];
    if (isPlainObject(previous) && isPlainObject(next)) {
      const nested = mergePatchBetween(previous, next);
      if (nested) patch[key] = nested;
    } else if (!deepEqual(previous, next)) {
      patch[key] = next;
    }
  }
  for (const key of Object.keys(from)) {
    if (from[key] !== undefined && to[key] === undefined) patch[key] = null;
  }
  return Object.keys(patch).length === 0 ? undefined : patch;
}

/** Structural equality of JSON values; keys set to `undefined` count as absent. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => deepEqual(v, b[i]));
  }
  if (!isPlainObject(a) || !isPlainObject(b)) return false;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) if (!deepEqual(a[key], b[key])) return false;
  return true;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
