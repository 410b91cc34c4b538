import type { Cache, InformerHealth } from '../cache/index.js';
import type { Logger } from '../log/index.js';
import { untilAborted } from './wait.js';

/** How often progress of a sync still running is logged. */
const PROGRESS_LOG_MS = 10_000;

/**
 * What the informers have received so far: it changes while a sync makes progress (a
 * page or 500 streamed objects in, an informer synced, any answer of the server), and not
 * while the server refuses or cannot be reached.
 */
function progressOf(health: InformerHealth[]): string {
  return health.map((h) => `${h.kind}:${h.synced}:${h.listing ?? 0}:${h.lastContact?.getTime() ?? 0}`).join(',');
}

/**
 * Waits for the cache to sync. Fails (false) only once `stalledMs` passed without progress:
 * a large cache still receiving objects is waited for however long it takes, with its
 * progress logged every 10 s, rather than failed and restarted from nothing (the crash loop
 * of a fixed sync timeout at 100,000 objects). Undefined when `signal` aborts first.
 */
export async function waitForCacheSync(cache: Cache, stalledMs: number, log: Logger, signal: AbortSignal): Promise<boolean | undefined> {
  const startedAt = performance.now();
  let seen = progressOf(cache.health());
  let progressAt = startedAt;
  for (;;) {
    const stepMs = Math.max(1, Math.min(PROGRESS_LOG_MS, progressAt + stalledMs - performance.now()));
    const synced = await untilAborted(cache.waitForSync(stepMs), signal);
    if (synced !== false) return synced;
    const health = cache.health();
    const now = progressOf(health);
    if (now !== seen) {
      seen = now;
      progressAt = performance.now();
    }
    if (performance.now() - progressAt >= stalledMs) return false;
    const waiting = health.filter((h) => !h.synced).map((h) => ({ kind: h.kind, received: h.listing ?? 0, ...(h.lastError ? { lastError: h.lastError } : {}) }));
    log.info({ waiting, elapsedMs: Math.round(performance.now() - startedAt), synced: health.length - waiting.length, informers: health.length }, 'Waiting for caches to sync');
  }
}
