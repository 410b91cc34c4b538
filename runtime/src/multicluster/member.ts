import type { KubeConfig } from '../rest/kubeconfig.js';
import { createCache, type Cache } from '../cache/index.js';
import { createClient, type Client } from '../client/index.js';
import { createEventRecorder, type EventRecorder } from '../events/index.js';
import type { Logger } from '../log/index.js';
import type { Metrics } from '../metrics/index.js';
import { createCluster, isCluster, type Cluster } from '../rest/cluster.js';
import type { ClusterTarget } from './provider.js';

/** What every engaged cluster is built with: the manager's settings that are not the connection. */
export interface MemberSettings {
  log: Logger;
  metrics: Metrics;
  fieldManager?: string;
  readYourWritesMs?: number;
  resyncPeriodMs?: number;
}

/** One engaged cluster: its own connection, cache and client, stopped together. */
export interface Member {
  readonly name: string;
  readonly cluster: Cluster;
  readonly cache: Cache;
  readonly client: Client;
  readonly log: Logger;
  /** Aborted when the cluster is disengaged: its informers stop, its controllers' queues are dropped. */
  readonly stopped: AbortSignal;
  /** Every informer of its cache has listed. */
  synced(): boolean;
  /** An event recorder writing to this cluster as `component`. */
  recorder(component: string): EventRecorder;
  /** Stops its informers and request metrics; resolves once its recorders flushed. */
  stop(): Promise<void>;
}

/** Builds the cluster `name` from `target` and starts its cache. */
export function startMember(name: string, target: ClusterTarget, settings: MemberSettings): Member {
  const log = settings.log.child({ cluster: name });
  const { connection, namespace } = unwrap(target);
  const cluster = isCluster(connection) ? connection : createCluster(connection, { logger: log.child({ logger: 'rest' }) });
  const unobserve = cluster.observe(settings.metrics.restClient(cluster.host));
  const cache = createCache(cluster, { namespace, logger: log.child({ logger: 'cache' }), resyncPeriodMs: settings.resyncPeriodMs });
  const client = createClient(cluster, {
    cache,
    logger: log.child({ logger: 'client' }),
    ...(settings.fieldManager ? { fieldManager: settings.fieldManager } : {}),
    ...(settings.readYourWritesMs !== undefined ? { readYourWritesMs: settings.readYourWritesMs } : {}),
  });
  const stopper = new AbortController();
  const recorders = new Map<string, EventRecorder>();
  cache.start(stopper.signal);
  return {
    name,
    cluster,
    cache,
    client,
    log,
    stopped: stopper.signal,
    synced: () => cache.health().every((informer) => informer.synced),
    recorder(component) {
      let recorder = recorders.get(component);
      if (!recorder) {
        recorder = createEventRecorder(client, { reportingController: component, logger: log.child({ logger: 'events' }), now: () => cluster.clock.wall() });
        recorders.set(component, recorder);
      }
      return recorder;
    },
    async stop() {
      stopper.abort(new Error(`cluster ${name} was disengaged`));
      unobserve();
      await Promise.allSettled([...recorders.values()].map((r) => r.flush()));
    },
  };
}

/** The connection of `target` and the namespace it is narrowed to, if any. */
function unwrap(target: ClusterTarget): { connection: KubeConfig | Cluster; namespace?: string } {
  if (isCluster(target as Cluster)) return { connection: target as Cluster };
  if ('cluster' in target) return { connection: target.cluster, namespace: target.namespace };
  return { connection: target };
}
