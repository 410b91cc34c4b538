/** How a failing watch waits before its next try; defaults are client-go's reflector's. */
export interface BackoffOptions {
  /** First delay, default 800 ms. */
  initialMs?: number;
  /** Ceiling, default 30 000 ms. */
  maxMs?: number;
  /** Each delay is stretched by up to this fraction at random, default 1 (up to twice). */
  jitter?: number;
}

/**
 * The delay before retry number `failures` (1 for the first): `initialMs * 2^(failures-1)`
 * stretched by random jitter, so informers failing together do not retry in lockstep,
 * never above `maxMs`.
 */
export function backoffDelay(failures: number, options: BackoffOptions = {}, random: () => number = Math.random): number {
  const initialMs = options.initialMs ?? 800;
  const maxMs = options.maxMs ?? 30_000;
  const jitter = options.jitter ?? 1;
  const base = Math.min(maxMs, initialMs * 2 ** Math.max(0, failures - 1));
  return Math.min(maxMs, base * (1 + jitter * random()));
}
