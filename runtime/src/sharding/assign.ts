/** What the sharder does to one object; see {@link nextMove}. */
export type Move =
  | { type: 'none' }
  /** Label it for `shard` (no shard holds it, or its shard is dead): the shard starts at once. */
  | { type: 'assign'; shard: string }
  /** Ask its live shard to let go: that shard stops reconciling it, then removes the labels. */
  | { type: 'drain' };

/** An object's sharding labels, as the sharder's cache shows them. */
export interface Placement {
  /** The shard label's value, if any. */
  current: string | undefined;
  /** Whether the drain label is set. */
  draining: boolean;
}

/**
 * The one step that brings an object closer to `desired` without ever letting two live
 * shards hold it: a live shard is only ever asked to drain; only an object no live shard
 * holds (unlabelled, acknowledged, or its shard's Lease expired) is labelled for another.
 */
export function nextMove(placement: Placement, desired: string | undefined, isLive: (shard: string) => boolean): Move {
  const { current, draining } = placement;
  if (desired === undefined) return { type: 'none' };
  if (current === undefined || current === '' || !isLive(current)) {
    // No live shard holds it; a drain label left by a shard that died while draining goes too.
    return current === desired && !draining ? { type: 'none' } : { type: 'assign', shard: desired };
  }
  if (current === desired || draining) return { type: 'none' };
  return { type: 'drain' };
}
