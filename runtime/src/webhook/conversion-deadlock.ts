import { kindLabel } from '../client/paths.js';
import type { Logger } from '../log/index.js';
import type { Manager } from '../manager/types.js';
import type { ConversionRegistry } from './conversion.js';

/** How often the unsynced informers are looked at, and how often the same warning may repeat. */
const CHECK_EVERY_MS = 5_000;
const REPEAT_EVERY_MS = 30_000;

/**
 * Until the caches have synced, warns when an informer of a kind this server converts
 * fails because the API server cannot call the conversion webhook: the process is then
 * waiting on itself. The usual cause is a readiness probe that waits for the caches while
 * the Service routes the API server only to ready pods; the warning says so.
 */
export async function reportConversionDeadlock(mgr: Pick<Manager, 'cache'>, conversions: ConversionRegistry, log: Logger, signal: AbortSignal): Promise<void> {
  const warnedAt = new Map<string, number>();
  while (!signal.aborted) {
    const health = mgr.cache.health();
    if (health.length > 0 && health.every((h) => h.synced)) return;
    const converted = new Set([...conversions.values()].map(({ hub }) => kindLabel(hub)));
    for (const informer of health) {
      if (informer.synced || !converted.has(informer.kind) || !/conversion webhook/i.test(informer.lastError ?? '')) continue;
      const last = warnedAt.get(informer.kind);
      if (last !== undefined && performance.now() - last < REPEAT_EVERY_MS) continue;
      warnedAt.set(informer.kind, performance.now());
      log.warn(
        { kind: informer.kind, error: informer.lastError },
        `The cache of ${informer.kind} cannot sync: the API server must convert it through this operator's own conversion webhook and cannot reach it. ` +
          'If the Service routes only to ready pods, the readiness probe must not wait for the caches: probe /readyz/webhook (as opgen scaffolds it), or remove the cache-sync check',
      );
    }
    await new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, CHECK_EVERY_MS);
      signal.addEventListener('abort', done, { once: true });
    });
  }
}
