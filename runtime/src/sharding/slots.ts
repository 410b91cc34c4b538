/**
 * The hash space of server-side sharding. Kubernetes' `ShardedListAndWatch` (KEP-5866)
 * hashes `metadata.uid` with 64-bit FNV-1a and selects `[start, end)` ranges of it; this
 * ring cuts that space into {@link SLOTS} equal slots, the unit a replica holds and hands
 * over. 64 slots among a few replicas balance to a few percent, and a shard selector of a
 * replica's slots (adjacent ones merged) stays a short query parameter.
 */
export const SLOTS = 64;
const SLOT_BITS = 6n;
const MASK64 = (1n << 64n) - 1n;

/** 64-bit FNV-1a of `text`'s UTF-8 bytes: the hash the API server filters `shardRange` by. */
export function fnv1a64(text: string): bigint {
  let hash = 0xcbf29ce484222325n;
  for (const byte of Buffer.from(text, 'utf8')) {
    hash ^= BigInt(byte);
    hash = (hash * 0x100000001b3n) & MASK64;
  }
  return hash;
}

/**
 * The slot an object with this uid is in: the top bits of its hash.
 *
 * @example
 * const mine = table.slots[slotOf(widget.metadata.uid)]; // { owner: 'r2' }
 */
export function slotOf(uid: string): number {
  return Number(fnv1a64(uid) >> (64n - SLOT_BITS));
}

const hex = (value: bigint) => `0x${value.toString(16).padStart(16, '0')}`;

/**
 * The `shardSelector` selecting `slots`: one `shardRange(object.metadata.uid, …)` per run of
 * adjacent slots, joined by `||`. No slots selects the range `[0, 1)`, which the API server
 * accepts (an empty range it refuses) and which practically holds nothing; the gate checks
 * every object's slot besides.
 *
 * @example
 * shardSelectorFor([0, 1, 5]);
 * // "shardRange(object.metadata.uid, '0x0000000000000000', '0x0800000000000000')
 * //  || shardRange(object.metadata.uid, '0x1400000000000000', '0x1800000000000000')"
 * // (one line)
 */
export function shardSelectorFor(slots: Iterable<number>): string {
  const sorted = [...new Set(slots)].sort((a, b) => a - b);
  const step = 1n << (64n - SLOT_BITS);
  const range = (from: bigint, to: bigint) => `shardRange(object.metadata.uid, '${hex(from)}', '${to > MASK64 ? `0x1${'0'.repeat(16)}` : hex(to)}')`;
  if (sorted.length === 0) return range(0n, 1n);
  const ranges: string[] = [];
  let start = sorted[0]!;
  for (let i = 1; i <= sorted.length; i++) {
    if (i < sorted.length && sorted[i] === sorted[i - 1]! + 1) continue;
    ranges.push(range(BigInt(start) * step, BigInt(sorted[i - 1]! + 1) * step));
    if (i < sorted.length) start = sorted[i]!;
  }
  return ranges.join(' || ');
}
