import type { Logger } from '../log/index.js';
import type { Cache } from '../cache/index.js';
import { convertedKinds, type ConversionRegistry } from './conversion.js';

/** How often the unsynced informers are looked at. */
const CHECK_EVERY_MS = 2_000;
/** How long an informer of a converted kind may stay unsynced with no conversion call before the warning. */
const QUIET_MS = 10_000;
/** How often the same warning may repeat. */
const REPEAT_EVERY_MS = 30_000;

/** What the check needs of the webhook server. */
export interface ConversionCalls {
  readonly conversions: ConversionRegistry;
  /** Conversion reviews answered so far. */
  readonly conversionReviews: number;
}

/**
 * Until the caches have synced, warns when an informer of a kind this server converts has
 * not synced while the API server has not called the conversion webhook for `QUIET_MS`
 * (or its list failed naming the conversion webhook): the process is then waiting on
 * itself: the CRD's conversion webhook does not lead here, or a readiness check the user
 * added waits for the caches while the Service routes the API server only to ready pods
 * (the built-in `/readyz` checks leave such kinds out); the warning says so.
 */
export async function reportConversionDeadlock(cache: Pick<Cache, 'health'>, server: ConversionCalls, log: Logger, signal: AbortSignal): Promise<void> {
  const warnedAt = new Map<string, number>();
  let calls = server.conversionReviews;
  let lastCallAt = performance.now();
  while (!signal.aborted) {
    const health = cache.health();
    if (health.length > 0 && health.every((h) => h.synced)) return;
    const now = performance.now();
    if (server.conversionReviews !== calls) {
      calls = server.conversionReviews;
      lastCallAt = now;
    }
    const converted = convertedKinds(server.conversions);
    for (const informer of health) {
      if (informer.synced || !converted.has(informer.kind)) continue;
      const failedOnConversion = /conversion webhook/i.test(informer.lastError ?? '');
      if (!failedOnConversion && now - lastCallAt < QUIET_MS) continue;
      const last = warnedAt.get(informer.kind);
      if (last !== undefined && now - last < REPEAT_EVERY_MS) continue;
      warnedAt.set(informer.kind, now);
      log.warn(
        { kind: informer.kind, secondsWithoutConversionCalls: Math.round((now - lastCallAt) / 1000), ...(informer.lastError ? { error: informer.lastError } : {}) },
        `The cache of ${informer.kind} cannot sync: the API server must convert it through this operator's own conversion webhook, and does not reach it. ` +
          "Check the CRD's conversion webhook (Service, path, caBundle) and the readiness probe: the built-in /readyz checks do not wait on this cache, but a check added with addReadyzCheck that does keeps the Service from routing here",
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
