import { Counter, Gauge, type Registry } from 'prom-client';

/** The sharding metrics of one replica; the sharder's only move on its leader. */
export interface ShardMetrics {
  /** A move the sharder made: `assign` (new object), `reassign` (its shard's Lease expired), `drain` (asked a live shard to let go). */
  moved(move: 'assign' | 'reassign' | 'drain'): void;
  /** This replica acknowledged a drain: one object handed over. */
  drained(): void;
  /** How many shards the sharder sees alive now. */
  liveShards(count: number): void;
}

/**
 * `opgen_shard_objects{ring,shard}` (objects this replica holds, read at each scrape),
 * `opgen_shard_drained_total{ring,shard}`, `opgen_sharder_moves_total{ring,move}` and
 * `opgen_sharder_live_shards{ring}`: rebalances are the drains and reassignments.
 */
export function registerShardMetrics(registry: Registry, ring: string, shard: string, holding: () => number): ShardMetrics {
  new Gauge({
    name: 'opgen_shard_objects',
    help: 'Objects of the ring assigned to this replica (in its shard-selected cache).',
    labelNames: ['ring', 'shard'] as const,
    registers: [registry],
    collect() {
      this.set({ ring, shard }, holding());
    },
  });
  const drained = new Counter({
    name: 'opgen_shard_drained_total',
    help: 'Objects this replica stopped reconciling and handed back to the sharder.',
    labelNames: ['ring', 'shard'] as const,
    registers: [registry],
  });
  const moves = new Counter({
    name: 'opgen_sharder_moves_total',
    help: 'Shard label changes the sharder made: assign (unassigned object), reassign (its shard died), drain (rebalance away from a live shard).',
    labelNames: ['ring', 'move'] as const,
    registers: [registry],
  });
  const live = new Gauge({ name: 'opgen_sharder_live_shards', help: 'Shards whose Lease the sharder sees renewed.', labelNames: ['ring'] as const, registers: [registry] });
  drained.inc({ ring, shard }, 0);
  return {
    moved: (move) => moves.inc({ ring, move }),
    drained: () => drained.inc({ ring, shard }),
    liveShards: (count) => live.set({ ring }, count),
  };
}
