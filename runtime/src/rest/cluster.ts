import { currentContextOf, type KubeConfig } from './kubeconfig.js';
import type { LoggerLike } from './logger.js';
import { tokenBucketFor, type TokenBucket } from './token-bucket.js';
import { createTransport, type HttpRequest, type Transport, type TransportObserver } from './transport.js';
import { systemClock, type Clock } from '../time/clock.js';

/**
 * One connection to one API server, shared by everything of a process: the client, the
 * cache, leader election, events, access reviews, built-in certificates, Helm discovery and
 * storage migration all send through its {@link Transport}, so its token bucket bounds the
 * process as a whole and its observers see every request (controller-runtime's
 * `cluster.Cluster` over one `rest.Config`). Plain data: build it with {@link createCluster}.
 */
export interface Cluster {
  /** The kubeconfig it was built from; undefined for a cluster on a transport of its own (an in-process API server). */
  readonly kubeConfig: KubeConfig | undefined;
  /** Every request goes through this one transport. */
  readonly transport: Transport;
  /**
   * What `rest_client_*` metrics call the server (their `host` label): the kubeconfig
   * server's `host:port`, or the name given with a transport of its own.
   */
  readonly host: string;
  /** The client-side token bucket every try takes from (`qps` / `burst`); undefined when off. */
  readonly rateLimiter: TokenBucket | undefined;
  /**
   * Adds an observer of every response and retry (a manager adds its `rest_client_*`
   * metrics); returns its removal.
   */
  observe(observer: TransportObserver): () => void;
  /**
   * The cluster's time, which a manager on it runs its queues, requeues, resyncs and leases
   * on: real time, or an in-process server's fake clock, so that the manager and the server
   * stamping its objects agree on what time it is and a test can move both at once.
   */
  readonly clock: Clock;
}

/** Options of {@link createCluster}. */
export interface ClusterOptions {
  /** Client-side rate limit, requests per second (client-go's QPS); off by default (the server's API Priority and Fairness limits). */
  qps?: number;
  /** Burst of that limit; default `qps` rounded up; only with `qps`. */
  burst?: number;
  /** A token bucket of your own instead of `qps` / `burst` (e.g. one that counts); not together with them. */
  rateLimiter?: TokenBucket;
  /** Observes every response and retry from the start; more can be added with {@link Cluster.observe}. */
  observer?: TransportObserver;
  /** Hears of retried 5xx responses and broken connections: each at debug, a warning at most every 30 s. */
  logger?: LoggerLike;
  /** Deadline of a call, its retries included, unless the call sets its own; default 60 000 ms. */
  timeoutMs?: number;
  /** How long one try waits for response headers before its connection is presumed dead; default 20 000 ms. */
  responseTimeoutMs?: number;
  /**
   * The time a manager on this cluster runs on; default real time. Tests pass the clock of
   * an in-process server, or a real-time one that reports what is busy (`@opgen/runtime/testing`).
   */
  clock?: Clock;
}

/** What a transport of your own is wired to: the cluster's bucket, its observers, its logger. */
export type TransportWiring = Pick<ClusterOptions, 'rateLimiter' | 'logger'> & { observer: TransportObserver };

/** Options of {@link createCluster} on a transport of your own. */
export interface ClusterOnTransportOptions extends Pick<ClusterOptions, 'qps' | 'burst' | 'rateLimiter' | 'observer' | 'logger' | 'clock'> {
  /**
   * The transport, or a function building it from the cluster's wiring: only a built one
   * can take from the cluster's token bucket and report to its observers.
   */
  transport: Transport | ((wiring: TransportWiring) => Transport);
  /** Kept as {@link Cluster.kubeConfig} when there is one (e.g. for a kubectl beside the process). */
  kubeConfig?: KubeConfig;
  /** The `host` label of `rest_client_*` metrics; default the kubeconfig server's `host:port`, else `in-process`. */
  host?: string;
}

/**
 * Builds the one {@link Cluster} of a process: from a kubeconfig (the usual case), or on a
 * {@link Transport} of your own, e.g. an API server served in-process for tests.
 * `createManager({ cluster })` takes one; without it the manager builds its own from
 * `kubeConfig` and `qps` / `burst`.
 *
 * @example
 * import { createManager, loadKubeConfig } from '@opgen/runtime/manager';
 * import { createCluster } from '@opgen/runtime/rest';
 *
 * const cluster = createCluster(loadKubeConfig(), { qps: 50, burst: 100 });
 * const mgr = createManager({ cluster });
 *
 * // Or on an in-process transport that takes the cluster's tokens itself:
 * const inMemory = createCluster({
 *   transport: ({ rateLimiter, observer }) => memoryTransport({ rateLimiter, observer }),
 *   host: 'memory',
 * });
 */
export function createCluster(kubeConfig: KubeConfig, options?: ClusterOptions): Cluster;
export function createCluster(options: ClusterOnTransportOptions): Cluster;
export function createCluster(first: KubeConfig | ClusterOnTransportOptions, second: ClusterOptions = {}): Cluster {
  const own = 'transport' in first ? first : undefined;
  const options: ClusterOptions = own ?? second;
  if (options.rateLimiter && (options.qps || options.burst)) throw new Error('createCluster: give either rateLimiter or qps/burst, not both');
  const rateLimiter = options.rateLimiter ?? tokenBucketFor(options.qps, options.burst);
  const observers = new Set<TransportObserver>(options.observer ? [options.observer] : []);
  // One observer the transport calls, fanning out to those added later (a manager's metrics).
  const observer: TransportObserver = {
    response: (method, code) => observers.forEach((o) => o.response(method, code)),
    retry: (method, code) => observers.forEach((o) => o.retry(method, code)),
    rateLimited: (method, seconds, path) => observers.forEach((o) => o.rateLimited?.(method, seconds, path)),
  };
  const observe = (added: TransportObserver) => {
    observers.add(added);
    return () => void observers.delete(added);
  };
  const wiring: TransportWiring = { rateLimiter, observer, ...(options.logger ? { logger: options.logger } : {}) };

  if (own) {
    if (typeof own.transport !== 'function' && rateLimiter) {
      throw new Error('createCluster: a rate limit needs a transport built from the wiring (pass a function as transport)');
    }
    const transport = typeof own.transport === 'function' ? own.transport(wiring) : own.transport;
    return { kubeConfig: own.kubeConfig, transport, host: own.host ?? serverHost(own.kubeConfig) ?? 'in-process', rateLimiter, observe, clock: own.clock ?? systemClock };
  }
  const kubeConfig = first as KubeConfig;
  const transport = createTransport(kubeConfig, { ...wiring, timeoutMs: options.timeoutMs, responseTimeoutMs: options.responseTimeoutMs });
  return { kubeConfig, transport, host: serverHost(kubeConfig) ?? 'unknown', rateLimiter, observe, clock: options.clock ?? systemClock };
}

/** The `host:port` of a kubeconfig's current server; undefined without one. */
function serverHost(kubeConfig: KubeConfig | undefined): string | undefined {
  if (!kubeConfig) return undefined;
  try {
    return new URL(currentContextOf(kubeConfig).cluster.server).host;
  } catch {
    return undefined;
  }
}

/** Whether `target` is a {@link Cluster} rather than a kubeconfig. */
export function isCluster(target: KubeConfig | Cluster): target is Cluster {
  return 'transport' in target && 'observe' in target;
}

/**
 * The cluster of a part that takes either a {@link Cluster} or a kubeconfig (`createClient`,
 * `createCache`, `runLeaderElection` …): a kubeconfig gets a cluster of its own from
 * `options`; a cluster is used as it is, and connection settings given beside it are an error
 * (they belong to the cluster, which every part shares).
 */
export function clusterOf(target: KubeConfig | Cluster, options: ClusterOptions, who: string): Cluster {
  if (!isCluster(target)) return createCluster(target, options);
  const conflicting = (['qps', 'burst', 'rateLimiter', 'observer', 'responseTimeoutMs'] as const).filter((key) => options[key] !== undefined);
  if (conflicting.length > 0) throw new Error(`${who}: ${conflicting.join(', ')} belong to the cluster: set them in createCluster`);
  return target;
}

/** `transport` with a default deadline for calls that set none (a client's `timeoutMs`, an access review's 10 s). */
export function withTimeout(transport: Transport, timeoutMs: number | undefined): Transport {
  if (timeoutMs === undefined) return transport;
  return delegate(transport, <T>(request: HttpRequest) => transport.request<T>({ ...request, timeoutMs: request.timeoutMs ?? timeoutMs }));
}

/**
 * `transport` whose calls each first take a token from `pace` as well (a storage migration's
 * own 20 requests a second, below the cluster's limit); watches are not paced.
 */
export function paced(transport: Transport, pace: TokenBucket | undefined): Transport {
  if (!pace) return transport;
  return delegate(transport, async <T>(request: HttpRequest) => {
    await pace.take(request.signal);
    return transport.request<T>(request);
  });
}

/** `transport` with its `request` replaced; methods are called on it, so a class's `this` holds. */
function delegate(transport: Transport, request: Transport['request']): Transport {
  return { request, stream: (r) => transport.stream(r), recovered: (signal) => transport.recovered(signal) };
}
