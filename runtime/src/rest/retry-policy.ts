/** How one try of a request ended, as far as retrying is concerned. */
export type TryOutcome =
  | { status: number; retryAfterSeconds: number | undefined }
  | { error: NodeJS.ErrnoException; /** Whether any byte of the request may have reached the server. */ mayHaveBeenSent: boolean };

/** client-go's bound: a request is sent at most this many times. */
export const MAX_TRIES = 10;

/** Methods safe to send twice: repeating them cannot do anything the first did not. */
const IDEMPOTENT = new Set(['GET', 'PUT', 'DELETE']);

/** Connection failures that prove nothing was sent, so any method may be retried. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/** Failures of the connection itself (as opposed to a deadline or the caller's abort). */
const CONNECTION = new Set([...NOT_SENT, 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ECONNABORTED', 'ERESPONSETIMEOUT', 'UND_ERR_SOCKET']);

/** Whether a try that failed to connect never sent anything. */
export function notSent(error: NodeJS.ErrnoException): boolean {
  return NOT_SENT.has(error.code ?? '');
}

/**
 * How long to wait before the next try, or `undefined` not to retry: client-go's rules.
 * - 429 (API Priority and Fairness, max-in-flight): the server refused before doing
 *   anything, so every method is retried.
 * - 5xx with `Retry-After`: the server asks to come back; every method is retried.
 * - 5xx without it, and a broken connection: only idempotent methods, or a request that
 *   provably never left.
 * The wait is `Retry-After` when given, else 200 ms doubling to 5 s; both stretched by up
 * to 20 % at random so that the workers refused together do not all come back together.
 */
export function retryDelayMs(method: string, outcome: TryOutcome, tries: number, random: () => number = Math.random): number | undefined {
  if (tries >= MAX_TRIES) return undefined;
  const jitter = 1 + 0.2 * random();
  const backoff = Math.min(5_000, 200 * 2 ** (tries - 1)) * jitter;
  if ('status' in outcome) {
    const { status, retryAfterSeconds } = outcome;
    if (status !== 429 && status < 500) return undefined;
    if (retryAfterSeconds !== undefined) return retryAfterSeconds * 1000 * jitter;
    return status === 429 || IDEMPOTENT.has(method) ? backoff : undefined;
  }
  if (!CONNECTION.has(outcome.error.code ?? '')) return undefined;
  return !outcome.mayHaveBeenSent || IDEMPOTENT.has(method) ? backoff : undefined;
}

/** The `Retry-After` header in seconds; the HTTP-date form is not used by the API server. */
export function parseRetryAfter(header: string | string[] | undefined): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || !/^\d+$/.test(value.trim())) return undefined;
  return Number(value.trim());
}
