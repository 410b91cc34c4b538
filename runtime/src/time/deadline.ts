/** A signal that aborts when its parent does or when its time is up; see {@link withDeadline}. */
export interface Deadline {
  readonly signal: AbortSignal;
  /** True once the time ran out (not the parent's abort). */
  timedOut(): boolean;
  /** Stops the timer and lets go of the parent: call it once the guarded work is over. */
  clear(): void;
}

/**
 * Aborts `signal` after `ms`, or as soon as `parent` aborts, whichever comes first.
 *
 * Not `AbortSignal.any([parent, AbortSignal.timeout(ms)])`: Node (20.x and later,
 * nodejs/node#57736) holds a timeout signal inside a composite only weakly, so once a
 * garbage collection has run the composite never times out, and a request to a server that
 * stopped answering hangs past its deadline (a leader that could not renew kept running).
 * Here a plain timer holds the controller: it fires whatever the collector does.
 * The timer is unref'd, as `AbortSignal.timeout`'s: it alone keeps no process alive.
 *
 * @example
 * const deadline = withDeadline(signal, 10_000);
 * try {
 *   await transport.request({ method: 'GET', path, signal: deadline.signal });
 * } finally {
 *   deadline.clear();
 * }
 */
export function withDeadline(parent: AbortSignal | undefined, ms: number): Deadline {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    parent?.removeEventListener('abort', follow);
    controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
  }, ms);
  timer.unref();
  function follow(): void {
    clearTimeout(timer);
    controller.abort(parent!.reason);
  }
  if (parent?.aborted) follow();
  else parent?.addEventListener('abort', follow, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    clear() {
      clearTimeout(timer);
      parent?.removeEventListener('abort', follow);
    },
  };
}
