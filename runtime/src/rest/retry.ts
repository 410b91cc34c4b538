import { isConflict } from './errors.js';

/** Options of {@link retryOnConflict}; defaults are client-go's `retry.DefaultRetry`. */
export interface RetryOptions {
  /** Attempts in all, default 5. */
  attempts?: number;
  /** Pause before each retry, default 10 ms, with up to 10 % jitter. */
  delayMs?: number;
}

/**
 * Runs `fn` again while it fails with a 409 Conflict, up to `attempts` times. `fn` must
 * read the object afresh each time (from the API server, not a copy it held), re-apply its
 * change and write: the usual read-modify-write loop around `update` / `updateStatus`.
 * Any other error, and the last conflict, are thrown.
 */
export async function retryOnConflict<T>(fn: () => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const attempts = options.attempts ?? 5;
  const delayMs = options.delayMs ?? 10;
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (error) {
      if (!isConflict(error) || attempt >= attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, delayMs * (1 + 0.1 * Math.random())));
    }
  }
}
