import { hostname } from 'node:os';
import type { Kind } from '../api/kind.js';
import type { Cache, KindCache } from '../cache/index.js';
import { createClient } from '../client/index.js';
import type { ShardGate } from '../controller/types.js';
import { podNamespace } from '../leaderelection/elector.js';
import type { Logger } from '../log/index.js';
import type { Metrics } from '../metrics/index.js';
import type { KubeObject } from '../object.js';
import type { Cluster } from '../rest/cluster.js';
import type { Transport } from '../rest/transport.js';
import { servesShardSelectors } from './detect.js';
import { claimKinds, createShardGate } from './gate.js';
import { checkRingName, shardIdOf, shardLabel } from './labels.js';
import { createMembership, type LeaseTiming } from './membership.js';
import { registerShardMetrics } from './metrics.js';
import { runSharder } from './sharder.js';
import { createSlotHolder } from './slot-holder.js';
import { APPLIED_ANNOTATION } from './slot-table.js';

/**
 * Sharding of a manager's objects across its replicas (`ManagerOptions.sharding`). Every
 * replica runs its controllers on the objects its shard holds; a reconcile is not called for
 * an object this replica does not hold, so a request-form reconcile is not called after a
 * deletion either (clean up with a finalizer). Only one reconciled kind per ring.
 *
 * @example
 * createManager({ sharding: { ring: 'widgets', kinds: [Widget, kinds.ConfigMap] } });
 */
export interface ShardingOptions {
  /** The ring's name: it names the shard label `shard.opgen.dev/<ring>` and the Leases `<ring>-shard-<id>`, `<ring>-sharder`. */
  ring: string;
  /**
   * The sharded kinds: the reconciled kind first, then kinds this operator owns, whose
   * objects land on their controller owner's shard. Their informers select this shard's
   * label. Default: the `for` and owned kinds of the first controller registered.
   */
  kinds?: readonly Kind[];
  /**
   * This replica's shard id; default the host name (a pod's name). Keep it stable across
   * restarts (a StatefulSet's pod names are): a replica back within the lease duration
   * under the same id keeps its objects, nothing moves.
   */
  shardId?: string;
  /**
   * How objects reach their replica. `labels`: the sharder labels each object
   * `shard.opgen.dev/<ring>=<id>` and each replica's informers select their label; children
   * land with their controller owner. `server`: the API server's own shard selectors
   * (feature gate `ShardedListAndWatch`, alpha in Kubernetes 1.36, KEP-5866): no label is
   * written; each replica's informer of the reconciled kind asks only for the hash ranges
   * of `metadata.uid` it holds. The API server hashes nothing but `metadata.uid` or
   * `metadata.namespace`, so children cannot follow their owner: in this mode the owned
   * kinds are cached whole on every replica (their events still reach only the owner's
   * replica). `auto` (the default): `server` where the API server serves shard selectors,
   * else `labels`.
   */
  mode?: 'auto' | 'labels' | 'server';
}

/** What the manager wires in for sharding. */
export interface ShardReplica {
  readonly shard: string;
  readonly gate: ShardGate;
  /** Whether this replica's shard Lease is fresh: checked before each reconcile. */
  alive(): boolean;
  /** Resolves once this replica's Lease exists (the sharder assigns only to members). */
  readonly joined: Promise<void>;
  /** Decides the mode (asks the API server for `auto`); call before the cache starts. */
  prepare(signal?: AbortSignal): Promise<'labels' | 'server'>;
  /** A readiness check: throws while this replica's sharder has given up its Lease for failing (see `runSharder`). */
  sharderReady(): void;
  /** Work of every replica: the membership Lease, and the sharder's campaign. */
  readonly runnables: Array<{ name: string; run: (signal: AbortSignal) => Promise<void> }>;
}

/** The shard id `options` give, or the host name made into one. */
export function shardIdFor(options: ShardingOptions): string {
  checkRingName(options.ring);
  return shardIdOf(options.shardId ?? hostname());
}

/**
 * Makes each of `kinds` select this shard's objects in `byKind`, in place (the cache reads
 * this array when it creates an informer, so entries added before a kind's informer exists
 * take effect): `selection` decides per list and watch, by `server()`, between the shard
 * label and, for the reconciled kind (the first), the shard selector of the slots held;
 * the other kinds are then cached whole.
 */
function selectShard(byKind: KindCache[], ring: string, shard: string, kinds: readonly Kind[], server: () => boolean, shardSelector: () => string): void {
  const key = (k: Kind) => `${k.group}/${k.version}/${k.plural}`;
  const label = `${shardLabel(ring)}=${shard}`;
  kinds.forEach((kind, index) => {
    const selection = (): { labelSelector?: string; shardSelector?: string } => (!server() ? { labelSelector: label } : index === 0 ? { shardSelector: shardSelector() } : {});
    const at = byKind.findIndex((e) => key(e.kind) === key(kind));
    const entry = byKind[at];
    if (entry?.selection) throw new Error(`sharding: the cache options of ${kind.kind} have a selection already`);
    if (entry) byKind[at] = { ...entry, selection };
    else byKind.push({ kind: kind as Kind<KubeObject>, selection });
  });
}

export interface ReplicaContext {
  /** The manager's cluster: the shard Leases, labels and the sharder's watches go through its one transport. */
  cluster: Cluster;
  cache: Cache;
  /** The cache's `byKind`, extended in place once the kinds are known. */
  byKind: KindCache[];
  log: Logger;
  metrics: Metrics;
  timing: LeaseTiming;
  /** Where the Leases live; default the pod's namespace, else `default`. */
  namespace?: string;
  /** This replica's Lease could not be renewed in time: stop, as a lost leader does. */
  onLost(): void;
}

/** Assembles one replica's part of the ring: membership, sharder campaign, gate, metrics. */
export function createShardReplica(options: ShardingOptions, shard: string, c: ReplicaContext): ShardReplica {
  const kinds = [...((options.kinds ?? []) as Kind<KubeObject>[])];
  for (const kind of kinds) if (c.cache.has(kind)) throw new Error(`sharding: the cache watches ${kind.kind} already, unselected`);
  let mode: 'labels' | 'server' | undefined;
  const server = () => mode === 'server';
  const namespace = c.namespace ?? podNamespace() ?? 'default';
  const log = c.log.child({ logger: 'sharding', ring: options.ring, shard });
  let applied = 0;
  let sharderProblem: string | undefined;
  const onKinds = (claimed: readonly Kind<KubeObject>[]) => selectShard(c.byKind, options.ring, shard, claimed, server, () => holder.shardSelector());
  const holder = createSlotHolder({ ring: options.ring, shard, kinds, onKinds, cache: c.cache, cluster: c.cluster, namespace, log, onApplied: (generation) => (applied = generation) });
  if (kinds.length > 0) onKinds(kinds);
  // No cache: label writes must not wait for a cache that is about to lose the object.
  const client = createClient(c.cluster, { fieldManager: `opgen-sharding-${options.ring}` });
  const metrics = registerShardMetrics(c.metrics.registry, options.ring, shard, () => (kinds[0] ? c.cache.informerFor(kinds[0]).list().length : 0));
  const membership = createMembership(withDeadline(c.cluster.transport, c.timing.renewDeadlineMs), namespace, options.ring, shard, c.timing, log, c.onLost, (): Record<string, string> =>
    server() ? { [APPLIED_ANNOTATION]: String(applied) } : {},
  );
  const labels = createShardGate({ ring: options.ring, shard, kinds, onKinds, cache: c.cache, client, log, metrics });
  const gate: ShardGate = {
    claim: (forKind, owned) => claimKinds({ ring: options.ring, kinds, onKinds }, forKind, owned),
    handsOver: (event) => (server() ? holder.gate.handsOver(event) : labels.handsOver(event)),
    admit: (kind, request) => (server() ? holder.gate.admit(kind, request) : labels.admit(kind, request)),
    release: (kind, request) => (server() ? holder.gate.release(kind, request) : labels.release(kind, request)),
  };
  return {
    shard,
    gate,
    alive: membership.alive,
    joined: membership.joined,
    sharderReady: () => {
      if (sharderProblem) throw new Error(sharderProblem);
    },
    async prepare(signal) {
      if (mode) return mode;
      const wanted = options.mode ?? 'auto';
      const served = wanted === 'labels' ? false : await servesShardSelectors(c.cluster.transport, namespace, signal);
      if (wanted === 'server' && !served) throw new Error('sharding: mode "server" needs an API server with the feature gate ShardedListAndWatch (Kubernetes 1.36+); this one ignores shard selectors');
      mode = served ? 'server' : 'labels';
      log.info({ mode, asked: wanted }, 'Sharding mode');
      return mode;
    },
    runnables: [
      { name: `shard-lease-${options.ring}`, run: (signal) => membership.run(signal) },
      {
        name: `sharder-${options.ring}`,
        run: (signal) =>
          runSharder(
            {
              ring: options.ring,
              shard,
              kinds,
              cluster: c.cluster,
              client,
              namespace,
              watchNamespace: c.cache.namespace,
              timing: c.timing,
              log: log.child({ logger: 'sharder' }),
              metrics,
              mode: () => mode ?? 'labels',
              onHealth: (problem) => (sharderProblem = problem),
            },
            signal,
          ),
      },
      // The server-side mode's slot table, followed by every replica.
      { name: `shard-slots-${options.ring}`, run: async (signal) => (server() ? holder.run(signal) : undefined) },
    ],
  };
}

/** The cluster's transport with a deadline on every call that sets none: a renewal later than the renew deadline is worth nothing. */
function withDeadline(transport: Transport, timeoutMs: number): Transport {
  return {
    request: (request) => transport.request({ timeoutMs, ...request }),
    stream: (request) => transport.stream(request),
    recovered: (signal) => transport.recovered(signal),
  };
}
