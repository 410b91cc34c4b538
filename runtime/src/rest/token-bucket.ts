import { sleep } from './sleep.js';

/**
 * Paces calls to at most `qps` a second on average, with bursts of up to `burst`. A token
 * is spent when a request is sent, never held while it runs: a long watch costs nothing.
 */
export interface TokenBucket {
  /** Resolves with the milliseconds waited once the caller may send; early (without a token) if `signal` aborts. */
  take(signal?: AbortSignal): Promise<number>;
}

/**
 * client-go's client-side rate limiter. Off unless asked for: with API Priority and
 * Fairness the server does the limiting, which is why controller-runtime turned it off.
 */
export function createTokenBucket(qps: number, burst: number, now: () => number = () => performance.now()): TokenBucket {
  if (!(qps > 0) || !(burst >= 1)) throw new Error(`client rate limit: qps must be > 0 and burst ≥ 1 (got qps ${qps}, burst ${burst})`);
  let tokens = burst;
  let last = now();
  return {
    async take(signal) {
      const start = now();
      for (;;) {
        const t = now();
        tokens = Math.min(burst, tokens + ((t - last) / 1000) * qps);
        last = t;
        if (tokens >= 1) {
          tokens -= 1;
          return t - start;
        }
        await sleep(((1 - tokens) / qps) * 1000, signal);
        if (signal?.aborted) return now() - start;
      }
    },
  };
}

/** The bucket `qps` / `burst` ask for (burst default: `qps` rounded up), or none when `qps` is unset. */
export function tokenBucketFor(qps: number | undefined, burst: number | undefined): TokenBucket | undefined {
  if (burst !== undefined && !qps) throw new Error('client rate limit: burst needs qps');
  return qps ? createTokenBucket(qps, burst ?? Math.ceil(qps)) : undefined;
}
