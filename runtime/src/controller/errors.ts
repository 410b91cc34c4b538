import { isConflict } from '../client/index.js';

/**
 * An error the reconciler cannot recover from by retrying (bad spec, missing permission the
 * operator will never get): the key is not requeued and the failure is counted in
 * `controller_runtime_terminal_reconcile_errors_total`. A new event for the object still
 * triggers a reconcile.
 */
export class TerminalError extends Error {
  override readonly name = 'TerminalError';
}

/** Wraps `error` as a {@link TerminalError}, keeping it as the cause: `throw terminal(err)`. */
export function terminal(error: unknown): TerminalError {
  if (error instanceof TerminalError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new TerminalError(message, { cause: error });
}

/** Whether `error` is, or wraps, a {@link TerminalError}. */
export function isTerminal(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 10; e = e.cause, depth++) {
    if (e instanceof TerminalError) return true;
  }
  return false;
}

/**
 * Whether a thrown value looks like a bug in the reconciler rather than a failure it
 * reports: JavaScript's analogue of a Go panic, counted in
 * `controller_runtime_reconcile_panics_total`. Network and API failures are plain `Error`s
 * (or the client's `ApiError`) and are not counted here.
 */
export function isProgrammingFault(error: unknown): boolean {
  if (!(error instanceof Error)) return true;
  return error instanceof TypeError || error instanceof ReferenceError || error instanceof RangeError;
}

/**
 * The optimistic-concurrency conflict `error` is or wraps (a write with a stale
 * `resourceVersion`): an expected race that the next reconcile, reading the newer object,
 * resolves. `undefined` for any other error.
 */
export function conflictOf(error: unknown): Error | undefined {
  for (let e = error, depth = 0; e instanceof Error && depth < 10; e = e.cause, depth++) {
    if (isConflict(e)) return e;
  }
  return undefined;
}
