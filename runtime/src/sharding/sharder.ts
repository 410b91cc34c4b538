import { apiVersionOf, type Kind } from '../api/kind.js';
import { createCache, type Cached, type Informer } from '../cache/index.js';
import { Lease } from '../client/kinds.js';
import type { Client } from '../client/index.js';
import { runLeaderElection } from '../leaderelection/index.js';
import type { Logger } from '../log/index.js';
import type { KubeObject } from '../object.js';
import { isConflict, isNotFound } from '../rest/errors.js';
import { sleep } from '../rest/sleep.js';
import type { Cluster } from '../rest/cluster.js';
import { nextMove } from './assign.js';
import { createDeathConfirmer } from './confirm.js';
import { drainLabel, placementKey, RING_LABEL, shardLabel } from './labels.js';
import { createLiveness } from './liveness.js';
import { assignSlots } from './slot-sharder.js';
import type { LeaseTiming } from './membership.js';
import type { ShardMetrics } from './metrics.js';
import { shardFor } from './ring.js';

/** What the sharder needs. */
export interface SharderOptions {
  ring: string;
  /** The sharded kinds: the reconciled kind first, then kinds whose objects follow their controller owner of that kind. */
  kinds: readonly Kind<KubeObject>[];
  /** The manager's cluster: the sharder's Lease and watches go through its one transport. */
  cluster: Cluster;
  /** A client without a cache: its label patches must never wait for a cache to show them. */
  client: Client;
  namespace: string;
  timing: LeaseTiming;
  log: Logger;
  metrics: ShardMetrics;
  /** How the ring shards, decided before the sharder runs (see `ShardingOptions.mode`). */
  mode(): 'labels' | 'server';
  /** Label patches in flight at once; default 32. */
  concurrency?: number;
}

/**
 * Runs the ring's sharder until `signal` aborts: one replica at a time (Lease
 * `<ring>-sharder`) watches the shard Leases and, in the label mode, the objects' metadata,
 * and moves shard labels (or, in the server-side mode, slots: see `assignSlots`). Every label write is conditional on the resourceVersion it decided on, so a
 * stale view or a second sharder loses with a conflict instead of double-assigning.
 */
export async function runSharder(o: SharderOptions, signal: AbortSignal): Promise<void> {
  while (!signal.aborted) {
    await runLeaderElection(
      o.cluster,
      { id: `${o.ring}-sharder`, namespace: o.namespace, ...o.timing, signal, logger: o.log },
      {
        onStartedLeading: (leading, stillLeading) => {
          o.log.info({ ring: o.ring }, 'Sharder started');
          void (o.mode() === 'server' ? assignSlots : assign)(o, leading, stillLeading).catch((error: unknown) => o.log.error({ err: error }, 'Sharder failed'));
        },
        onStoppedLeading: ({ lost }) => {
          if (lost) o.log.error({ ring: o.ring }, 'Sharder lost its Lease: another replica takes over');
        },
      },
    );
    // Lost: campaign again after a pause; another replica shards meanwhile.
    await sleep(o.timing.retryPeriodMs, signal);
  }
}

/** Keeps labels right while `leading` is not aborted. */
async function assign(o: SharderOptions, leading: AbortSignal, stillLeading: () => boolean): Promise<void> {
  const [ownerKind] = o.kinds;
  if (!ownerKind) throw new Error('sharding: no kinds to shard');
  const S = shardLabel(o.ring);
  const D = drainLabel(o.ring);
  const ownerApiVersion = apiVersionOf(ownerKind);
  const keyOf = (object: Cached<KubeObject>) => placementKey(object, ownerKind.kind, ownerApiVersion);
  const cache = createCache(o.cluster, {
    logger: o.log,
    byKind: [{ kind: Lease, labelSelector: `${RING_LABEL}=${o.ring}` }, ...o.kinds.map((kind) => ({ kind, metadataOnly: true }))],
  });
  const leases = cache.informerFor(Lease);
  const informers = o.kinds.map((kind) => cache.informerFor(kind) as Informer<KubeObject>);
  for (const informer of informers.slice(1)) informer.addIndex('placement', (object) => [keyOf(object)]);
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

  /** The shard a child belongs on: its owner's while the owner is held by a live shard. */
  const childTarget = (object: Cached<KubeObject>): string | undefined => {
    const key = keyOf(object);
    const [ns, name] = [key.slice(0, key.indexOf('/')), key.slice(key.indexOf('/') + 1)];
    const owner = name === object.metadata.name ? undefined : informers[0]!.get(name, ns || undefined);
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
      const target = childTarget(object);
      if (target && labels[S] !== target) {
        await patchLabels(kind, object, { [S]: target, [D]: null });
        o.metrics.moved('assign');
      }
      return;
    }
    const current = labels[S];
    const move = nextMove({ current, draining: D in labels }, shardFor(keyOf(object), liveness.members()), liveness.isLive);
    if (move.type === 'assign' && current && !(await confirmDead(current))) {
      // Alive after all: the membership change this causes looks at every object again.
      return;
    }
    if (move.type === 'assign') {
      // Children first, so the new shard's first reconcile finds them in its cache.
      const placement = keyOf(object);
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
        o.log.error({ err: error, item: item.replace('\u0000', ' ') }, 'Sharder could not move an object: retrying');
        again.add(item);
        await sleep(1_000, leading);
      } finally {
        busy.delete(item);
        if (again.delete(item)) pending.add(item);
      }
    }
  };

  cache.start(leading);
  if (!(await cache.waitForSync(120_000)) || leading.aborted) {
    if (!leading.aborted) o.log.error({ ring: o.ring }, 'Sharder: caches did not sync within 120 s');
    return;
  }
  o.log.info({ ring: o.ring, objects: informers[0]!.list().length }, 'Sharder synced');
  // Reports the first membership, which enqueues every object.
  liveness.start(leading);
  await Promise.all(Array.from({ length: o.concurrency ?? 32 }, worker));
  liveness.stop();
}

function throwNotLeading(): never {
  throw new Error('not the sharder any more');
}
