/**
 * Rendezvous (highest random weight) hashing: every shard scores every key, the highest
 * score wins. Adding a shard moves only the keys it now wins (about 1/n of them), removing
 * one moves only its own keys; every replica and the sharder compute the same answer from
 * the same member list, with no ring state to share.
 */
export function shardFor(key: string, shards: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestScore = -1;
  for (const shard of shards) {
    const score = score32(shard, key);
    // Ties (1 in 2^32) go to the smaller name, so the answer never depends on list order.
    if (score > bestScore || (score === bestScore && best !== undefined && shard < best)) {
      best = shard;
      bestScore = score;
    }
  }
  return best;
}

/** FNV-1a over `shard \0 key`, then a murmur3 finalizer so that close names spread apart. */
function score32(shard: string, key: string): number {
  let h = 0x811c9dc5;
  h = fnv(fnv(fnv(h, shard), '\u0000'), key);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

function fnv(hash: number, text: string): number {
  let h = hash;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h;
}
