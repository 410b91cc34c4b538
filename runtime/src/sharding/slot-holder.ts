import type { Kind } from '../api/kind.js';
import { createCache, type Cache, type Cached } from '../cache/index.js';
import { Lease } from '../client/kinds.js';
import type { ShardGate } from '../controller/types.js';
import type { Logger } from '../log/index.js';
import type { KubeObject } from '../object.js';
import type { Cluster } from '../rest/cluster.js';
import { claimKinds } from './gate.js';
import { slotsLeaseName } from './labels.js';
import { parseTable, slotsOf, SLOTS_ANNOTATION, type SlotTable } from './slot-table.js';
import { shardSelectorFor, slotOf } from './slots.js';

export interface SlotHolderOptions {
  ring: string;
  shard: string;
  /** The ring's kinds, the reconciled one first; empty until the gate's claim fills it. */
  kinds: Kind<KubeObject>[];
  /** Called once the kinds are known, before any informer of them is created. */
  onKinds(kinds: readonly Kind<KubeObject>[]): void;
  cache: Cache;
  cluster: Cluster;
  namespace: string;
  log: Logger;
  /** This replica acknowledges having applied `generation`: written on its shard Lease. */
  onApplied(generation: number): void;
}

/** A replica's side of the server-side mode. */
export interface SlotHolder {
  readonly gate: ShardGate;
  /** The `shardSelector` of the reconciled kind's informer: the slots held now. */
  shardSelector(): string;
  /** Follows the slot table until `signal` aborts. */
  run(signal: AbortSignal): Promise<void>;
}

/**
 * Holds the slots the table gives this replica. A new table is applied in three steps:
 * the gate stops admitting objects of the slots taken away (at once: from then on no
 * reconcile of them starts here), the reconciles of them still running are waited for,
 * and only then is the generation acknowledged on this replica's Lease; the sharder gives
 * a released slot to another replica only after that acknowledgement (or this replica's
 * Lease expiry). The informer then lists again with the new slots' shard selector.
 */
export function createSlotHolder(o: SlotHolderOptions): SlotHolder {
  let held = new Set<number>();
  let appliedGeneration = 0;
  let latest: SlotTable | undefined;
  let applying = false;
  /** Reconciles running per slot, and the slot each running request was admitted in. */
  const running = new Map<number, number>();
  const admitted = new Map<string, number>();
  const keyOf = (request: { name: string; namespace?: string }) => `${request.namespace ?? ''}/${request.name}`;
  let settled: Array<() => void> = [];
  const id = (k: Kind) => `${k.group}/${k.kind}`;
  const slotOfRequest = (request: { name: string; namespace?: string }): number | undefined => {
    const object = o.cache.informerFor(o.kinds[0]!).get(request.name, request.namespace);
    return object?.metadata.uid ? slotOf(object.metadata.uid) : undefined;
  };

  const apply = async (): Promise<void> => {
    if (applying) return;
    applying = true;
    try {
      while (latest && latest.generation > appliedGeneration) {
        const table = latest;
        const next = new Set(slotsOf(table, o.shard));
        const released = [...held].filter((slot) => !next.has(slot));
        const changed = released.length > 0 || [...next].some((slot) => !held.has(slot));
        held = next;
        while (released.some((slot) => (running.get(slot) ?? 0) > 0)) await new Promise<void>((resolve) => settled.push(resolve));
        if (changed && o.kinds[0]) o.cache.informerFor(o.kinds[0]).reselect();
        appliedGeneration = table.generation;
        o.onApplied(appliedGeneration);
        if (changed) o.log.info({ generation: table.generation, slots: held.size, released: released.length }, 'Applied the slot table');
      }
    } finally {
      applying = false;
    }
  };

  const gate: ShardGate = {
    claim: (forKind, owned) => claimKinds(o, forKind, owned),
    handsOver: () => false,
    async admit(kind, request) {
      if (id(kind) !== id(o.kinds[0]!)) return true;
      const slot = slotOfRequest(request);
      // Not in this replica's cache (gone, or not its slots), or in a slot not held (any more).
      if (slot === undefined || !held.has(slot)) return false;
      running.set(slot, (running.get(slot) ?? 0) + 1);
      // The worker holds the key: one reconcile per key at a time.
      admitted.set(keyOf(request), slot);
      return true;
    },
    release(kind, request) {
      if (id(kind) !== id(o.kinds[0]!)) return;
      const key = keyOf(request);
      const slot = admitted.get(key);
      admitted.delete(key);
      if (slot !== undefined) running.set(slot, (running.get(slot) ?? 1) - 1);
      const wake = settled;
      settled = [];
      for (const w of wake) w();
    },
  };

  return {
    gate,
    shardSelector: () => shardSelectorFor(held),
    async run(signal) {
      const cache = createCache(o.cluster, { namespace: o.namespace, logger: o.log, byKind: [{ kind: Lease, fieldSelector: `metadata.name=${slotsLeaseName(o.ring)}` }] });
      const seen = (lease: Cached<Lease>) => {
        latest = parseTable(lease.metadata.annotations?.[SLOTS_ANNOTATION]);
        void apply().catch((error: unknown) => o.log.error({ err: error }, 'Could not apply the slot table'));
      };
      cache.informerFor(Lease).addHandler({ add: seen, update: (_, lease) => seen(lease) });
      cache.start(signal);
      await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
    },
  };
}
