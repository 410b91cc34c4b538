import { parseDuration } from '../../helpers/duration.js';
import type { FakeClock } from './clock.js';

/** Options of `cluster.runUntilIdle()`. */
export interface RunUntilIdleOptions {
  /**
   * How far (fake) time may move: timers due within this much of the call's start (a
   * requeue, a retry's backoff, a resync, a lease renewal) are run; later ones wait for the
   * next call. Milliseconds or a Go duration; default `'1s'`, which covers the error
   * backoff of a few failed retries but not a `requeue.after('5m')`.
   */
  horizon?: number | string;
  /**
   * Real milliseconds after which a system that never settles fails the call, naming what
   * was still busy; default 10 000.
   */
  timeoutMs?: number;
}

/** Event-loop turns in a row with nothing busy before the system counts as settled. */
const QUIET_TURNS = 3;

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Runs until the work queues are empty, no reconcile is in flight, no informer is still
 * listing, no request or watch event is pending, and no timer of `clock` is due within the
 * horizon; timers due within it are run in order, time moving to each. What "busy" means is
 * what the components told the clock with `track` (work queues, informers, the memory
 * server's requests and watch streams).
 */
export async function runUntilIdle(clock: FakeClock, options: RunUntilIdleOptions = {}): Promise<void> {
  const horizon = typeof options.horizon === 'string' ? parseDuration(options.horizon) : (options.horizon ?? 1_000);
  if (horizon === undefined || !(horizon >= 0)) throw new Error(`runUntilIdle: horizon ${JSON.stringify(options.horizon)} is not a duration such as '1s', '5m' or 60000`);
  const timeoutMs = options.timeoutMs ?? 10_000;
  const limit = clock.now() + horizon;
  const giveUpAt = performance.now() + timeoutMs;
  let fired = 0;
  for (;;) {
    for (let quiet = 0; quiet < QUIET_TURNS; ) {
      await turn();
      quiet = clock.busy() ? 0 : quiet + 1;
      if (performance.now() > giveUpAt) {
        // Named as the last turn saw it; none busy means the timers within the horizon kept it going.
        const busy = clock.busyNames();
        const what = busy.length > 0 ? `busy: ${busy.join(', ')}` : `${fired} timers fired within the horizon and more keep coming`;
        throw new Error(`runUntilIdle: not idle after ${timeoutMs} ms of real time (${what})`);
      }
    }
    const due = clock.nextDue();
    if (due === undefined || due > limit) return;
    fired++;
    clock.advance(Math.max(0, due - clock.now()));
  }
}
