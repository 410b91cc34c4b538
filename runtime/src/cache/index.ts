/**
 * The cache: shared list+watch informers, one per kind, that survive watch failures, API
 * server restarts and 410 Gone, with a store indexed by namespace, labels and user indexes.
 * Each informer is a watcher (list+watch loop, `watcher.ts`) feeding a reflector (store
 * and handler events, `reflector.ts`).
 *
 * Public surface:
 * - `createCache(clusterOrKubeConfig, { namespace?, logger?, backoff?, byKind? })` → {@link Cache}
 *   (on a `Cluster` from `@opgen/runtime/rest`, e.g. `mgr.cluster`, it shares that connection):
 *   `byKind` caches given kinds by label/field selector, metadata only, or transformed;
 *   `informerFor(kind)`, `has(kind)`, `start(signal)`, `waitForSync(ms)`, `health()`.
 * - {@link Informer}: `addHandler({ add, update, delete })`, `addIndex(name, fn)`,
 *   `get(name, namespace?)`, `list({ namespace, labels, index })`, `hasSynced()`,
 *   `waitForSync(ms)`, `health()`. Cached objects are shared: read, never change them.
 * - `backoffDelay(failures, options?)`: the retry delay a failing watch waits.
 *
 *
 * Imported as `@opgen/runtime/cache`; a manager's own cache is `mgr.cache`.
 *
 * @example
 * import { createCache } from '@opgen/runtime/cache';
 * import { kinds } from '@opgen/runtime';
 *
 * const cache = createCache(kubeConfig, { namespace: 'shop' });
 * const pods = cache.informerFor(kinds.Pod);
 * cache.start(signal);
 * await cache.waitForSync(60_000);
 * const running = pods.list({ labels: { app: 'web' } });
 *
 * @module
 */
export { createCache, type CacheOptions, type KindCache } from './cache.js';
export { backoffDelay, type BackoffOptions } from './backoff.js';
export type { Cache, Cached, EventHandler, IndexQuery, Informer, InformerHealth, KindCacheOptions, ListOptions } from './types.js';
