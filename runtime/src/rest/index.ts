/**
 * The bottom layer: one connection to an API server, which every part of a process sends
 * through. A {@link Cluster} holds one {@link Transport} (kept-alive connections, retries of
 * what client-go retries, deadlines), one token bucket (`qps` / `burst`) and the observers of
 * every response (`rest_client_*` metrics). A manager builds one from its kubeconfig, or takes
 * yours: `createManager({ cluster })`; its client, cache, leader election, events, access
 * reviews, built-in certificates, Helm discovery and storage migration all go through it.
 *
 * Public surface:
 * - `createCluster(kubeConfig, { qps?, burst?, rateLimiter?, observer?, logger?, timeoutMs?, responseTimeoutMs? })` → {@link Cluster}.
 * - `createCluster({ transport, kubeConfig?, host?, qps?, … })` → a {@link Cluster} on a
 *   transport of your own (an API server served in-process): `transport` is a
 *   {@link Transport}, or a function building one from the cluster's {@link TransportWiring}
 *   (its token bucket and observers), which only then count its requests.
 * - `createTransport(kubeConfig, options)` → {@link Transport}, the HTTP one a kubeconfig's
 *   cluster uses; `createTokenBucket(qps, burst)`; {@link ApiError}, what a transport throws
 *   for a non-2xx answer.
 * - {@link KubeConfig}: opgen's kubeconfig (plain data; a `@kubernetes/client-node`
 *   `KubeConfig` fits it too); `loadKubeConfig(path?, { context? })` finds one as
 *   controller-runtime does, `readKubeConfigFile` / `parseKubeConfig` read one,
 *   `mergeKubeConfigs` merges as `KUBECONFIG` does, `inClusterKubeConfig()` is a pod's.
 *
 * Imported as `@opgen/runtime/rest`. A separate subpath rather than `/client`: the client,
 * the cache and leader election are built on it, and an in-process transport needs only this.
 *
 * @example
 * import { createManager, loadKubeConfig } from '@opgen/runtime/manager';
 * import { createClient } from '@opgen/runtime/client';
 * import { createCluster } from '@opgen/runtime/rest';
 *
 * const cluster = createCluster(loadKubeConfig(), { qps: 50, burst: 100 });
 * const mgr = createManager({ cluster });
 * // A client of your own that counts against the same 50 requests a second:
 * const reports = createClient(cluster, { fieldManager: 'reports' });
 *
 * @module
 */
export { createCluster, type Cluster, type ClusterOptions, type ClusterOnTransportOptions, type TransportWiring } from './cluster.js';
export { createTransport, type Transport, type TransportOptions, type TransportObserver, type HttpRequest, type Query } from './transport.js';
export { createTokenBucket, type TokenBucket } from './token-bucket.js';
export { ApiError, type ApiStatus } from './errors.js';
export type { LoggerLike } from './logger.js';
export { currentContextOf, withContext, type KubeConfig, type KubeConfigCluster, type KubeConfigUser, type KubeConfigContext, type ExecConfig, type CurrentContext } from './kubeconfig.js';
export { readKubeConfigFile, parseKubeConfig } from './kubeconfig-file.js';
export { mergeKubeConfigs } from './kubeconfig-merge.js';
export { inClusterKubeConfig, type InClusterSource } from './in-cluster.js';
export { loadKubeConfig, type LoadKubeConfigOptions } from './load-kubeconfig.js';
// A cluster's time (`Cluster.clock`): real time, or a test's memory cluster's fake clock.
export type { Clock, ClockTimer } from '../time/clock.js';
