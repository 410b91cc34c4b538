/** A timer set on a {@link Clock}; `cancel` is harmless after it fired. */
export interface ClockTimer {
  /** Stops the timer before it fires. */
  cancel(): void;
}

/**
 * Where the runtime reads time and sets its timers: the work queue's delays
 * (`requeue.after`, error backoff), `.reconcileAllEvery()`, informer resyncs, reconcile
 * timeouts and leader election. Production runs on the system clock; a test's memory
 * cluster hands the manager a fake one that `runUntilIdle()` moves forward, so a
 * `requeue.after('5m')` is reached without waiting five minutes.
 *
 * Timers that only guard against a broken network (request and watch timeouts, retries of
 * failed requests, graceful shutdown) stay on real time: a test advancing its clock by an
 * hour must not time out its own requests.
 */
export interface Clock {
  /** Monotonic milliseconds: every duration is measured on this. */
  now(): number;
  /** Wall-clock time, for timestamps people read. */
  wall(): Date;
  /**
   * Calls `callback` once, `ms` from now. `unref`: the timer alone does not keep the
   * process alive (a periodic resync or a watchdog).
   */
  setTimer(callback: () => void, ms: number, options?: { unref?: boolean }): ClockTimer;
  /**
   * Tells a clock a test drives that a component still has work (`isBusy()` true): a
   * queue with keys, a reconcile in flight, a watch event not yet read. The test's clock
   * moves forward only once every component is idle; `what` names the component when it
   * never settles. Returns the unregister function. The system clock has no `track`:
   * production pays nothing for it.
   */
  track?(what: string, isBusy: () => boolean): () => void;
}

/** setTimeout's largest delay; a longer timer is re-armed when it fires. */
const MAX_TIMER_MS = 2 ** 31 - 1;

function systemTimer(callback: () => void, ms: number, unref: boolean): ClockTimer {
  const due = performance.now() + ms;
  let timer: NodeJS.Timeout;
  const arm = (left: number): void => {
    timer = setTimeout(() => {
      const rest = due - performance.now();
      if (rest > 1 && left >= MAX_TIMER_MS) arm(rest);
      else callback();
    }, Math.min(Math.max(0, left), MAX_TIMER_MS));
    if (unref) timer.unref();
  };
  arm(ms);
  return { cancel: () => clearTimeout(timer) };
}

/** Real time: `performance.now()`, `new Date()` and `setTimeout`. */
export const systemClock: Clock = {
  now: () => performance.now(),
  wall: () => new Date(),
  setTimer: (callback, ms, options) => systemTimer(callback, ms, options?.unref === true),
};

/** Waits `ms` on `clock`, or less if `signal` aborts first; never rejects. */
export function sleepOn(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = (): void => {
      timer.cancel();
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = clock.setTimer(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** Calls `tick` every `ms` on `clock` until `signal` aborts; unref'd, like a watchdog. */
export function everyOn(clock: Clock, ms: number, tick: () => void, signal: AbortSignal): void {
  let timer: ClockTimer | undefined;
  const arm = (): void => {
    timer = clock.setTimer(
      () => {
        if (signal.aborted) return;
        arm();
        tick();
      },
      ms,
      { unref: true },
    );
  };
  if (signal.aborted) return;
  arm();
  signal.addEventListener('abort', () => timer?.cancel(), { once: true });
}
