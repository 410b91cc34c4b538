/** Remembers answers for a while; see {@link createTtlCache}. */
export interface TtlCache<V> {
  /**
   * The cached answer for `key`, else `load()`'s. Callers asking while a load is in flight
   * share it; a failed load is not remembered, so the next call tries again.
   */
  get(key: string, load: () => Promise<V>): Promise<V>;
}

/**
 * A cache whose entries live `ttlOf(value)` ms, holding at most `maxEntries` (the oldest
 * go first): keys may come from untrusted callers, so it must not grow without bound.
 */
export function createTtlCache<V>(ttlOf: (value: V) => number, maxEntries = 4096, now: () => number = Date.now): TtlCache<V> {
  const entries = new Map<string, { value: Promise<V>; expires: number }>();
  return {
    get(key, load) {
      const hit = entries.get(key);
      if (hit && hit.expires > now()) return hit.value;
      entries.delete(key);
      const entry = { value: load(), expires: Number.POSITIVE_INFINITY };
      entries.set(key, entry);
      if (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
      entry.value.then(
        (value) => (entry.expires = now() + ttlOf(value)),
        () => {
          if (entries.get(key) === entry) entries.delete(key);
        },
      );
      return entry.value;
    },
  };
}
