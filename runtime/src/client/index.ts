/**
 * The client: typed reads and writes of any kind against the API server.
 *
 * Public surface:
 * - `createClient(clusterOrKubeConfig, { fieldManager?, cache?, timeoutMs?, responseTimeoutMs?, qps?, burst?, rateLimiter?, observer?, readYourWritesMs? })` → {@link Client}:
 *   `get` (undefined when missing), `list`, `create`, `update`, `patch` (JSON merge patch),
 *   `delete` (a missing object is fine), `updateStatus`, `patchStatus`, `apply` /
 *   `applyStatus` (server-side apply, forced by default), `withFieldManager(name)`,
 *   `uncached()` (reads straight from the API server), `withSignal(signal)` (calls cancelled
 *   with it). 429s and 5xx are retried inside each call, honouring `Retry-After`. Cached
 *   reads wait for the cache to show this client's own writes (read-your-writes). On a
 *   `Cluster` (`@opgen/runtime/rest`, e.g. `mgr.cluster`) it shares that connection, its
 *   rate limit and metrics; the connection options then belong to the cluster.
 * - Errors: `ApiError` and `isNotFound`, `isConflict`, `isAlreadyExists`, `isGone`,
 *   `isInvalid`, `isForbidden`, `isTooManyRequests`; `retryOnConflict(fn)` for read-modify-write loops.
 * - `kinds`: handles and object types of built-in kinds (`kinds.Pod`, `kinds.Deployment`…).
 * - `AsJson<T>`: a client-node model as JSON (timestamps as strings);
 *   `formatTime` / `formatMicroTime` for timestamps written to objects.
 * - `createTokenBucket(qps, burst)` → {@link TokenBucket}: client-go's client-side rate limiter,
 *   to share one bucket between clients and caches (`rateLimiter` of their options).
 * - `LoggerLike`: the logger the cluster-facing parts accept (pino satisfies it).
 *
 *
 * Imported as `@opgen/runtime/client`; `createClient`, `kinds` and the common `is…` checks
 * are also in the root export. A manager's own client is `mgr.client`.
 *
 * @example
 * import { createClient, createTokenBucket, retryOnConflict } from '@opgen/runtime/client';
 * import { kinds } from '@opgen/runtime';
 *
 * const client = createClient(kubeConfig, { rateLimiter: createTokenBucket(20, 30) });
 * await retryOnConflict(async () => {
 *   const cm = await client.get(kinds.ConfigMap, 'settings', 'shop');
 *   if (cm) await client.update(kinds.ConfigMap, { ...cm, data: { ...cm.data, mode: 'fast' } });
 * });
 *
 * @module
 */
export { createClient, type BindOptions, type Client, type ClientOptions, type ListQuery, type ApplyOptions, type ApplyObject, type DeleteOptions, type MergePatch } from './client.js';
export { ApiError, isAlreadyExists, isConflict, isForbidden, isGone, isInvalid, isNotFound, isTooManyRequests, type ApiStatus } from '../rest/errors.js';
export type { TransportObserver } from '../rest/transport.js';
export { createTokenBucket, type TokenBucket } from '../rest/token-bucket.js';
export { retryOnConflict, type RetryOptions } from '../rest/retry.js';
export * as kinds from './kinds.js';
export type { AsJson } from './wire.js';
export { formatMicroTime, formatTime } from './time.js';
export type { LoggerLike } from '../rest/logger.js';
