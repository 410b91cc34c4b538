import type { Clock, ClockTimer } from '../../time/clock.js';
import { parseDuration } from '../../helpers/duration.js';

/**
 * A {@link Clock} that moves only when told: the memory cluster's time. Timers fire, in
 * the order they are due, when `advance` reaches them; `runUntilIdle()` advances it from
 * timer to timer while the system is quiet.
 */
export interface FakeClock extends Clock {
  /**
   * Moves time forward by `by` (milliseconds or a Go duration such as `'5m'`), firing
   * every timer due on the way in due order, timers set by those callbacks included.
   */
  advance(by: number | string): void;
  /** When the earliest timer is due (on {@link Clock.now}'s scale); undefined without timers. */
  nextDue(): number | undefined;
  /** How many timers are set and not yet fired or cancelled. */
  timers(): number;
  /** Whether a component tracked with {@link Clock.track} still has work. */
  busy(): boolean;
  /** Descriptions of the busy components, for an error that says what never settled. */
  busyNames(): string[];
}

/** Options of {@link createFakeClock}. */
export interface FakeClockOptions {
  /** Wall-clock time at the start; default the real time now, truncated to the second. */
  start?: Date | string | number;
}

interface FakeTimer {
  due: number;
  /** Order of setting: timers due at the same time fire in the order they were set. */
  seq: number;
  callback: () => void;
  live: boolean;
}

/**
 * Creates a {@link FakeClock}: monotonic time starts at 0, wall time at `start`.
 *
 * @example
 * const clock = createFakeClock({ start: '2026-01-01T00:00:00Z' });
 * clock.setTimer(() => console.log('five minutes later'), 300_000);
 * clock.advance('5m'); // logs
 */
export function createFakeClock(options: FakeClockOptions = {}): FakeClock {
  const startWall = options.start === undefined ? Math.floor(Date.now() / 1000) * 1000 : new Date(options.start).getTime();
  if (!Number.isFinite(startWall)) throw new Error(`createFakeClock: start ${JSON.stringify(options.start)} is not a date`);
  let now = 0;
  let seq = 0;
  // Sorted by (due, seq); timers are few (one per queue, lease, resync), so insertion is cheap.
  const pending: FakeTimer[] = [];
  const probes = new Map<() => boolean, string>();

  const insert = (timer: FakeTimer): void => {
    let lo = 0;
    let hi = pending.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const other = pending[mid]!;
      if (other.due < timer.due || (other.due === timer.due && other.seq < timer.seq)) lo = mid + 1;
      else hi = mid;
    }
    pending.splice(lo, 0, timer);
  };

  const cancel = (timer: FakeTimer): void => {
    if (!timer.live) return;
    timer.live = false;
    const i = pending.indexOf(timer);
    if (i >= 0) pending.splice(i, 1);
  };

  const advanceTo = (target: number): void => {
    for (let first = pending[0]; first && first.due <= target; first = pending[0]) {
      pending.shift();
      first.live = false;
      now = Math.max(now, first.due);
      first.callback();
    }
    now = Math.max(now, target);
  };

  return {
    now: () => now,
    wall: () => new Date(startWall + now),
    setTimer(callback, ms) {
      const timer: FakeTimer = { due: now + Math.max(0, ms), seq: seq++, callback, live: true };
      insert(timer);
      const handle: ClockTimer = { cancel: () => cancel(timer) };
      return handle;
    },
    track(what, isBusy) {
      probes.set(isBusy, what);
      return () => {
        probes.delete(isBusy);
      };
    },
    advance(by) {
      const ms = typeof by === 'number' ? by : parseDuration(by);
      if (ms === undefined || !(ms >= 0)) throw new Error(`clock.advance: ${JSON.stringify(by)} is not a duration such as '30s' or 5000`);
      advanceTo(now + ms);
    },
    nextDue: () => pending[0]?.due,
    timers: () => pending.length,
    busy() {
      for (const isBusy of probes.keys()) if (isBusy()) return true;
      return false;
    },
    busyNames: () => [...probes].filter(([isBusy]) => isBusy()).map(([, name]) => name),
  };
}
