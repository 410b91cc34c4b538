import type { Cache, InformerHealth } from '../cache/index.js';
import type { Checks } from './probes.js';

/** What the manager's built-in `/readyz` checks look at. */
export interface CacheReadiness {
  cache: Pick<Cache, 'health'>;
  /** Whether the manager has started the cache and registered the informers its controllers need. */
  started(): boolean;
  /** Whether the whole cache has synced once. */
  synced(): boolean;
  /**
   * Kinds (`Shelf.test.opgen.dev`) whose conversion webhook this process serves: the API
   * server lists and watches them through this process, which it reaches only once the
   * process is ready, so readiness must not wait on them.
   */
  selfConverted(): ReadonlySet<string>;
}

/**
 * The checks `/readyz` starts with: `cache-sync` (the informers have synced) and
 * `informers` (a synced informer's watch is open). Neither waits on a kind whose
 * conversion webhook this process serves: that kind's cache can sync only once the
 * Service routes the API server's conversions here, which it does only once this process
 * is ready; waiting on it would deadlock every readiness probe, `/readyz` included.
 */
export function cacheReadinessChecks(readiness: CacheReadiness): Checks {
  const waitedOn = (health: InformerHealth[]): InformerHealth[] => {
    const converted = readiness.selfConverted();
    return health.filter((h) => !converted.has(h.kind));
  };
  return new Map([
    [
      'cache-sync',
      () => {
        if (readiness.synced()) return;
        if (!readiness.started() || waitedOn(readiness.cache.health()).some((h) => !h.synced)) throw new Error('caches have not synced yet');
      },
    ],
    [
      'informers',
      () => {
        // A synced cache whose watch fails (stalled, forbidden, server gone) serves stale reads.
        const failing = waitedOn(readiness.cache.health()).filter((h) => h.synced && !h.healthy);
        if (failing.length > 0) throw new Error(failing.map((h) => `${h.kind}: ${h.lastError ?? 'watch not open'}`).join('; '));
      },
    ],
  ]);
}
