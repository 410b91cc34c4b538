/** Decides how long a key waits before its next retry. */
export interface RateLimiter {
  /** The delay in ms for the next retry of `key`; counts the retry. */
  when(key: string): number;
  /** Forgets `key`'s failures: its next retry starts from the base delay again. */
  forget(key: string): void;
  /** How many retries of `key` have been counted since it was last forgotten. */
  retries(key: string): number;
}

/** Options of {@link exponentialBackoff}; the defaults are controller-runtime's. */
export interface ExponentialBackoffOptions {
  /** Delay of the first retry; default 5 ms. */
  baseMs?: number;
  /** Ceiling of the delay; default 1 000 000 ms (1000 s). */
  maxMs?: number;
}

/** Per-key exponential backoff: `baseMs * 2^retries`, capped at `maxMs`. */
export function exponentialBackoff(options: ExponentialBackoffOptions = {}): RateLimiter {
  const baseMs = options.baseMs ?? 5;
  const maxMs = options.maxMs ?? 1_000_000;
  const failures = new Map<string, number>();
  return {
    when(key) {
      const n = failures.get(key) ?? 0;
      failures.set(key, n + 1);
      return Math.min(baseMs * 2 ** n, maxMs);
    },
    forget(key) {
      failures.delete(key);
    },
    retries: (key) => failures.get(key) ?? 0,
  };
}
