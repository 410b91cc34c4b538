import { randomUUID } from 'node:crypto';
import { apiVersionOf, type Kind } from '../api/kind.js';
import { createCache, type Cached, type Informer } from '../cache/index.js';
import { Lease } from '../client/kinds.js';
import { runLeaderElection } from '../leaderelection/index.js';
import type { KubeObject } from '../object.js';
import { ApiError, isConflict, isNotFound, isTooManyRequests } from '../rest/errors.js';
import { sleep } from '../rest/sleep.js';
import { nextMove } from './assign.js';
import { createDeathConfirmer } from './confirm.js';
import { drainLabel, ownerPlacement, RING_LABEL, shardLabel } from './labels.js';
import { createLiveness } from './liveness.js';
import { assignSlots } from './slot-sharder.js';
import { shardFor } from './ring.js';
import type { SharderOptions } from './sharder-options.js';

/**
 * Runs the ring's sharder until `signal` aborts: one replica at a time (Lease
 * `<ring>-sharder`) watches the shard Leases and, in the label mode, the objects' metadata,
 * and moves shard labels (or, in the server-side mode, slots: see `assignSlots`). Every label write is conditional on the resourceVersion it decided on, so a
 * stale view or a second sharder loses with a conflict instead of double-assigning.
 *
 * A sharder that stops working (its caches do not sync in time, or an assignment fails in
 * a way retrying cannot mend, such as a write it is forbidden) gives up its Lease at once
 * and waits a Lease duration before it campaigns again, so that another replica takes over;
 * `onHealth` says so until sharding works again.
 */
export async function runSharder(o: SharderOptions, signal: AbortSignal): Promise<void> {
  const identity = `${o.shard}_${randomUUID()}`;
  while (!signal.aborted) {
    // One term: aborted when the work fails, which makes the elector release the Lease.
    const term = new AbortController();
    let failure: string | undefined;
    await runLeaderElection(
      o.cluster,
      { id: `${o.ring}-sharder`, identity, namespace: o.namespace, ...o.timing, signal: AbortSignal.any([signal, term.signal]), logger: o.log },
      {
        onStartedLeading: (leading, stillLeading) => {
          o.log.info({ ring: o.ring }, 'Sharder started');
          const work = o.mode() === 'server' ? assignSlots(o, leading, stillLeading) : assign(o, leading, stillLeading);
          void work.catch((error: unknown) => {
            if (leading.aborted) return;
            failure = (error as Error).message;
            o.log.error({ err: error, ring: o.ring }, 'Sharder stopped working: giving up its Lease');
            o.onHealth?.(`the sharder of ring ${o.ring} stopped working: ${failure}`);
            term.abort();
          });
        },
        onStoppedLeading: ({ lost }) => {
          if (lost) o.log.error({ ring: o.ring }, 'Sharder lost its Lease: another replica takes over');
        },
        onNewLeader: (holder) => {
          // Another replica shards now: nothing is left undone because of this one.
          if (holder !== identity) o.onHealth?.(undefined);
        },
      },
    );
    // Lost: campaign again after a pause; another replica shards meanwhile. Failed: pause
    // a Lease duration, so that a healthy replica wins the Lease first.
    await sleep(failure === undefined ? o.timing.retryPeriodMs : o.timing.leaseDurationMs, signal);
  }
}

/** Keeps labels right while `leading` is not aborted. */
async function assign(o: SharderOptions, leading: AbortSignal, stillLeading: () => boolean): Promise<void> {
  const [ownerKind] = o.kinds;
  if (!ownerKind) throw new Error('sharding: no kinds to shard');
  const S = shardLabel(o.ring);
  const D = drainLabel(o.ring);
  const ownerApiVersion = apiVersionOf(ownerKind);
  /** Where an object of kind `index` is placed: its own key, a child its owner's; undefined for a child no sharded object controls. */
  const keyOf = (index: number, object: Cached<KubeObject>): string | undefined =>
    index === 0 ? `${object.metadata.namespace ?? ''}/${object.metadata.name}` : ownerPlacement(object, ownerKind.kind, ownerApiVersion);
  // The shard Leases live in the Leases' namespace; the objects only where the manager watches.
  const leaseCache = createCache(o.cluster, { logger: o.log, namespace: o.namespace, byKind: [{ kind: Lease, labelSelector: `${RING_LABEL}=${o.ring}` }] });
  const cache = createCache(o.cluster, { logger: o.log, namespace: o.watchNamespace, byKind: o.kinds.map((kind) => ({ kind, metadataOnly: true })) });
  const leases = leaseCache.informerFor(Lease);
  const informers = o.kinds.map((kind) => cache.informerFor(kind) as Informer<KubeObject>);
  for (const [i, informer] of informers.entries()) if (i > 0) informer.addIndex('placement', (object) => [keyOf(i, object) ?? '']);
  const client = o.client.withSignal(leading, { precondition: () => void (stillLeading() || throwNotLeading()) });

  // Work: `index \0 namespace/name`, deduplicated; a key being processed is redone after.
  const pending = new Set<string>();
  const busy = new Set<string>();
  const again = new Set<string>();
  let waiters: Array<() => void> = [];
  const enqueue = (index: number, object: Cached<KubeObject>): void => {
    const item = `${index}\u0000${object.metadata.namespace ?? ''}/${object.metadata.name}`;
    if (busy.has(item)) again.add(item);
    else pending.add(item);
    const wake = waiters;
    waiters = [];
    for (const w of wake) w();
  };
  const enqueueAll = (): void => informers.forEach((informer, i) => informer.list().forEach((object) => enqueue(i, object)));

  const liveness = createLiveness(o.timing.leaseDurationMs, (members) => {
    o.metrics.liveShards(members.length);
    o.log.info({ ring: o.ring, shards: members }, 'Shard ring changed');
    enqueueAll();
  });
  leases.addHandler({ add: (l) => liveness.observe(l), update: (_, l) => liveness.observe(l), delete: (l) => liveness.forget(l) });
  informers.forEach((informer, i) => informer.addHandler({ add: (object) => enqueue(i, object), update: (_, object) => enqueue(i, object) }));

  const patchLabels = async (kind: Kind<KubeObject>, object: Cached<KubeObject>, labels: Record<string, string | null>): Promise<void> => {
    try {
      await client.patch(kind, object, { metadata: { resourceVersion: object.metadata.resourceVersion, labels } } as never);
    } catch (error) {
      // Changed or gone since this view: the watch brings the new version, which is looked at again.
      if (!isConflict(error) && !isNotFound(error)) throw error;
    }
  };

  /** The shard a child (placed by its owner's `key`) belongs on: its owner's while the owner is held by a live shard. */
  const childTarget = (key: string): string | undefined => {
    const [ns, name] = [key.slice(0, key.indexOf('/')), key.slice(key.indexOf('/') + 1)];
    const owner = informers[0]!.get(name, ns || undefined);
    if (!owner) return shardFor(key, liveness.members());
    const held = owner.metadata.labels?.[S];
    return held && liveness.isLive(held) ? held : undefined;
  };

  const confirmDead = createDeathConfirmer(client, liveness, o.ring, o.namespace, o.timing.retryPeriodMs);

  const process = async (item: string): Promise<void> => {
    const index = Number(item.slice(0, item.indexOf('\u0000')));
    const key = item.slice(item.indexOf('\u0000') + 1);
    const slash = key.indexOf('/');
    const object = informers[index]!.get(key.slice(slash + 1), key.slice(0, slash) || undefined);
    if (!object) return;
    const labels = object.metadata.labels ?? {};
    const kind = o.kinds[index]!;
    if (index > 0) {
      // Children are not reconciled themselves: they follow their owner without a drain.
      // An object no sharded object controls is not sharded: never labelled.
      const key = keyOf(index, object);
      if (key === undefined) return;
      const target = childTarget(key);
      if (target && labels[S] !== target) {
        await patchLabels(kind, object, { [S]: target, [D]: null });
        o.metrics.moved('assign');
      }
      return;
    }
    const current = labels[S];
    const placement = keyOf(0, object)!;
    const move = nextMove({ current, draining: D in labels }, shardFor(placement, liveness.members()), liveness.isLive);
    if (move.type === 'assign' && current && !(await confirmDead(current))) {
      // Alive after all: the membership change this causes looks at every object again.
      return;
    }
    if (move.type === 'assign') {
      // Children first, so the new shard's first reconcile finds them in its cache.
      for (const [i, informer] of informers.entries()) {
        if (i === 0) continue;
        for (const child of informer.list({ index: { name: 'placement', value: placement } })) {
          if (child.metadata.labels?.[S] !== move.shard) await patchLabels(o.kinds[i]!, child, { [S]: move.shard, [D]: null });
        }
      }
      await patchLabels(kind, object, { [S]: move.shard, [D]: null });
      o.metrics.moved(current ? 'reassign' : 'assign');
    } else if (move.type === 'drain') {
      await patchLabels(kind, object, { [D]: 'true' });
      o.metrics.moved('drain');
    } else if (current && liveness.isLive(current)) {
      // Held where it belongs. A child that arrived while this label was on its way here
      // found its owner unlabelled and was left alone: it follows now.
      for (const [i, informer] of informers.entries()) {
        if (i === 0) continue;
        for (const child of informer.list({ index: { name: 'placement', value: placement } })) if (child.metadata.labels?.[S] !== current) enqueue(i, child);
      }
    }
  };

  // One listener wakes every idle worker at the end (one per wait would pile up).
  leading.addEventListener(
    'abort',
    () => {
      for (const w of waiters) w();
      waiters = [];
    },
    { once: true },
  );
  const worker = async (): Promise<void> => {
    while (!leading.aborted) {
      const next = pending.values().next();
      if (next.done) {
        await new Promise<void>((resolve) => waiters.push(resolve));
        continue;
      }
      const item = next.value;
      pending.delete(item);
      busy.add(item);
      try {
        await process(item);
      } catch (error) {
        if (leading.aborted) return;
        // Refused by the API server for good (forbidden, invalid): retrying cannot mend it,
        // and another replica may be allowed. Give the work up, and with it the Lease.
        if (refused(error)) throw error;
        o.log.error({ err: error, item: item.replace('\u0000', ' ') }, 'Sharder could not move an object: retrying');
        again.add(item);
        await sleep(1_000, leading);
      } finally {
        busy.delete(item);
        if (again.delete(item)) pending.add(item);
      }
    }
  };

  leaseCache.start(leading);
  cache.start(leading);
  const syncTimeoutMs = o.syncTimeoutMs ?? 120_000;
  const synced = (await Promise.all([leaseCache.waitForSync(syncTimeoutMs), cache.waitForSync(syncTimeoutMs)])).every(Boolean);
  if (leading.aborted) return;
  if (!synced) throw new Error(`its caches did not sync within ${syncTimeoutMs / 1000} s`);
  o.log.info({ ring: o.ring, objects: informers[0]!.list().length }, 'Sharder synced');
  o.onHealth?.(undefined);
  // Reports the first membership, which enqueues every object.
  liveness.start(leading);
  try {
    await Promise.all(Array.from({ length: o.concurrency ?? 32 }, worker));
  } finally {
    liveness.stop();
  }
}

/** An answer of the API server that repeating the request cannot change: a 4xx other than a conflict, a missing object or throttling. */
function refused(error: unknown): boolean {
  return error instanceof ApiError && error.code >= 400 && error.code < 500 && !isConflict(error) && !isNotFound(error) && !isTooManyRequests(error);
}

function throwNotLeading(): never {
  throw new Error('not the sharder any more');
}
