import type { KubeConfig } from '../rest/kubeconfig.js';
import type { Kind } from '../api/kind.js';
import { silentLogger, type LoggerLike } from '../rest/logger.js';
import type { TokenBucket } from '../rest/token-bucket.js';
import type { TransportObserver } from '../rest/transport.js';
import { clusterOf, type Cluster } from '../rest/cluster.js';
import type { KubeObject } from '../object.js';
import type { BackoffOptions } from './backoff.js';
import { createInformer, type RunnableInformer } from './informer.js';
import type { Cache, KindCacheOptions } from './types.js';

/** {@link KindCacheOptions} for one kind. */
export type KindCache<T extends KubeObject = KubeObject> = KindCacheOptions<T> & { kind: Kind<T> };

/** Options of {@link createCache}: what it watches and how. */
export interface CacheOptions {
  /** Watch namespaced kinds in this namespace only (cluster-scoped kinds are always watched whole). */
  namespace?: string;
  /** Receives list/watch failures, relists and recoveries; pino fits. */
  logger?: LoggerLike;
  /** Retry delays of failing lists and watches; default 0.8 s → 30 s. */
  backoff?: BackoffOptions;
  /**
   * Every this often, handlers get an `update` (old and new the same object) for every
   * cached object, so controllers reconcile everything again even without changes
   * (controller-runtime's `SyncPeriod`). Off by default; a kind may set its own.
   */
  resyncPeriodMs?: number;
  /** How particular kinds are cached: selectors, metadata only, a transform; every other kind whole. */
  byKind?: KindCache[];
  /**
   * How informers list: `stream` (the default) asks for streaming lists (a watch with
   * `sendInitialEvents=true`, Kubernetes' WatchList: one consistent read from the API
   * server's watch cache, no list pages held by the server) and falls back to pages where
   * the server does not serve them; `pages` lists in pages of 500 only.
   */
  lists?: 'stream' | 'pages';
  /** Receives each response and retry of the cache's lists and watches (for `rest_client_*` metrics); with a kubeconfig only (a cluster has its own). */
  observer?: TransportObserver;
  /**
   * Client-side rate limit of the cache's lists (every page, every relist after a 410 Gone);
   * watches take no token, as in client-go. Off by default; with a kubeconfig only: a
   * {@link Cluster}'s bucket is the cluster's.
   */
  rateLimiter?: TokenBucket;
}

/**
 * Creates a cache of shared informers: one list+watch per kind however many controllers
 * ask for it. Informers asked for before `start` begin with it; later ones begin at once.
 * It sends through `cluster`'s transport (a manager passes its one {@link Cluster}); a
 * kubeconfig gets a connection of its own.
 */
export function createCache(cluster: Cluster | KubeConfig, options: CacheOptions = {}): Cache {
  // The cluster's clock times the resyncs: real time, or a memory cluster's fake clock.
  const { transport, clock } = clusterOf(cluster, { observer: options.observer, rateLimiter: options.rateLimiter, logger: options.logger }, 'createCache');
  const logger = options.logger ?? silentLogger;
  const informers = new Map<string, RunnableInformer<KubeObject>>();
  let running: AbortSignal | undefined;

  const keyOf = (kind: Kind) => `${kind.group}/${kind.version}/${kind.plural}`;

  return {
    namespace: options.namespace,

    informerFor<T extends KubeObject>(kind: Kind<T>) {
      const key = keyOf(kind);
      let informer = informers.get(key) as RunnableInformer<T> | undefined;
      if (!informer) {
        const perKind = options.byKind?.find((entry) => keyOf(entry.kind) === key) as KindCache<T> | undefined;
        informer = createInformer(transport, kind, {
          resyncPeriodMs: options.resyncPeriodMs,
          ...perKind,
          namespace: options.namespace,
          logger,
          backoff: options.backoff,
          clock,
          lists: options.lists,
        });
        informers.set(key, informer as unknown as RunnableInformer<KubeObject>);
        if (running) informer.start(running);
      }
      return informer;
    },

    has: (kind) => informers.has(keyOf(kind)),

    start(signal) {
      if (running) throw new Error('the cache is running already');
      running = signal;
      for (const informer of informers.values()) informer.start(signal);
    },

    async waitForSync(timeoutMs) {
      const results = await Promise.all([...informers.values()].map((informer) => informer.waitForSync(timeoutMs)));
      return results.every(Boolean);
    },

    health: () => [...informers.values()].map((informer) => informer.health()),
  };
}
