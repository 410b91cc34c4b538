import { createCache, type Cached } from '../cache/index.js';
import { Lease } from '../client/kinds.js';
import { isAlreadyExists, isConflict } from '../rest/errors.js';
import { sleep } from '../rest/sleep.js';
import { createDeathConfirmer } from './confirm.js';
import { RING_LABEL, slotsLeaseName } from './labels.js';
import { createLiveness } from './liveness.js';
import type { SharderOptions } from './sharder-options.js';
import { APPLIED_ANNOTATION, nextTable, parseTable, SLOTS_ANNOTATION, type SlotTable } from './slot-table.js';

/**
 * The server-side mode's sharder, while `leading` is not aborted: it keeps the slot table
 * (annotation of Lease `<ring>-slots`) moving toward the rendezvous choice among the live
 * shards, one generation at a time (see `nextTable`). Every write is conditional on the
 * resourceVersion read, so a second sharder with a stale view loses with a conflict.
 */
export async function assignSlots(o: SharderOptions, leading: AbortSignal, stillLeading: () => boolean): Promise<void> {
  const client = o.client.withSignal(leading, { precondition: () => void (stillLeading() || throwNotLeading()) });
  const cache = createCache(o.cluster, { namespace: o.namespace, logger: o.log, byKind: [{ kind: Lease, labelSelector: `${RING_LABEL}=${o.ring}` }] });
  const leases = cache.informerFor(Lease);
  let wake = (): void => {};
  let dirty = true;
  const poke = (): void => {
    dirty = true;
    wake();
  };
  const liveness = createLiveness(o.timing.leaseDurationMs, (members) => {
    o.metrics.liveShards(members.length);
    o.log.info({ ring: o.ring, shards: members }, 'Shard ring changed');
    poke();
  });
  const applied = new Map<string, number>();
  const seen = (lease: Cached<Lease>): void => {
    const holder = lease.spec?.holderIdentity;
    if (holder) applied.set(holder, Number(lease.metadata.annotations?.[APPLIED_ANNOTATION] ?? 0));
    liveness.observe(lease);
    poke();
  };
  leases.addHandler({ add: seen, update: (_, lease) => seen(lease), delete: (lease) => liveness.forget(lease) });
  const confirmDead = createDeathConfirmer(client, liveness, o.ring, o.namespace, o.timing.retryPeriodMs);
  const name = slotsLeaseName(o.ring);

  cache.start(leading);
  if (!(await cache.waitForSync(120_000)) || leading.aborted) return;
  let stored = await client.get(Lease, name, o.namespace);
  let table: SlotTable = parseTable(stored?.metadata.annotations?.[SLOTS_ANNOTATION]);
  o.log.info({ ring: o.ring, generation: table.generation }, 'Sharder synced (server-side shard selectors)');
  liveness.start(leading);

  // One listener ends the last wait: one per wait would pile up, a wait per Lease renewal.
  leading.addEventListener('abort', () => wake(), { once: true });
  while (!leading.aborted) {
    if (!dirty) {
      await new Promise<void>((resolve) => (wake = resolve));
      continue;
    }
    dirty = false;
    try {
      const step = nextTable(table, { live: liveness.members(), applied: (shard) => applied.get(shard) ?? 0 });
      if (!step) continue;
      // A shard alive after all: its renewal reports the membership change, which pokes again.
      if (!(await Promise.all(step.takesFrom.map(confirmDead))).every(Boolean)) continue;
      const text = JSON.stringify(step.table);
      const metadata = { name, namespace: o.namespace, annotations: { ...stored?.metadata.annotations, [SLOTS_ANNOTATION]: text } };
      stored = stored
        ? await client.update(Lease, { ...stored, metadata: { ...stored.metadata, ...metadata } } as Lease)
        : await client.create(Lease, { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata, spec: {} });
      countMoves(o, table, step.table);
      table = step.table;
      o.log.info({ ring: o.ring, generation: table.generation, slots: summary(table) }, 'Slot table written');
      // The next step may follow at once (e.g. a released slot whose owner is dead).
      dirty = true;
    } catch (error) {
      if (leading.aborted) return;
      if (isConflict(error) || isAlreadyExists(error)) {
        stored = await client.get(Lease, name, o.namespace).catch(() => stored);
        table = parseTable(stored?.metadata.annotations?.[SLOTS_ANNOTATION]);
      } else {
        o.log.error({ err: error }, 'Sharder could not write the slot table: retrying');
        await sleep(1_000, leading);
      }
      dirty = true;
    }
  }
}

function countMoves(o: SharderOptions, before: SlotTable, after: SlotTable): void {
  after.slots.forEach((entry, slot) => {
    const old = before.slots[slot]!;
    if ('from' in entry && !('from' in old)) o.metrics.moved('drain');
    else if ('owner' in entry && !('owner' in old && old.owner === entry.owner)) o.metrics.moved('owner' in old ? 'reassign' : 'assign');
  });
}

/** `{ r1: 21, r2: 22, releasing: 1 }`, for the logs. */
function summary(table: SlotTable): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const entry of table.slots) {
    const key = 'owner' in entry ? entry.owner : 'from' in entry ? 'releasing' : 'free';
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

function throwNotLeading(): never {
  throw new Error('not the sharder any more');
}
