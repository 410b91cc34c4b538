import { sleep } from './sleep.js';

/** Wakes those backing off from an API server outage as soon as the server is ready again. */
export interface RecoveryWatch {
  /**
   * Resolves once the API server, seen down by a probe after this call, answers a later
   * probe again; or when `signal` aborts. Never rejects. A server that is up, but failed
   * one request, never wakes the caller: it keeps its own backoff.
   */
  recovered(signal: AbortSignal): Promise<void>;
}

/**
 * One probe loop (about one probe a second, with jitter) that runs only while someone waits.
 * Informers share it: after an outage each of them would otherwise find out on its own
 * backoff, which by then has grown to tens of seconds; with it they come back within about
 * a second of the server, without each of them probing.
 */
export function createRecoveryWatch(probe: (signal: AbortSignal) => Promise<boolean>, intervalMs = 1_000): RecoveryWatch {
  const waiters = new Set<{ sawDown: boolean; wake(): void }>();
  let running = false;

  async function loop(): Promise<void> {
    running = true;
    const stop = new AbortController();
    try {
      while (waiters.size > 0) {
        const up = await probe(stop.signal).catch(() => false);
        for (const waiter of [...waiters]) {
          if (!up) waiter.sawDown = true;
          else if (waiter.sawDown) waiter.wake();
        }
        if (waiters.size > 0) await sleep(intervalMs * (0.8 + 0.4 * Math.random()));
      }
    } finally {
      stop.abort();
      running = false;
    }
  }

  return {
    recovered(signal) {
      return new Promise((resolve) => {
        if (signal.aborted) return resolve();
        const waiter = {
          sawDown: false,
          wake: () => {
            waiters.delete(waiter);
            signal.removeEventListener('abort', waiter.wake);
            resolve();
          },
        };
        waiters.add(waiter);
        signal.addEventListener('abort', waiter.wake, { once: true });
        if (!running) void loop();
      });
    },
  };
}
