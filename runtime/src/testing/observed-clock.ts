import { systemClock, type Clock } from '../time/clock.js';
import type { RunUntilIdleOptions } from './memory/idle.js';
import { parseDuration } from '../helpers/duration.js';

/**
 * Real time that also keeps what the runtime told it (busy components, timers set), so a
 * test on the real control plane can wait for a manager to go quiet: the control-plane
 * tier's `runUntilIdle`.
 */
export interface ObservedClock extends Clock {
  runUntilIdle(options?: RunUntilIdleOptions): Promise<void>;
}

/**
 * How long nothing may be busy before a manager on a real API server counts as idle: a
 * watch event for a write the test just made may still be on the wire, which no probe sees.
 */
const QUIET_MS = 250;
const POLL_MS = 10;

const wait = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Creates an {@link ObservedClock}. */
export function createObservedClock(): ObservedClock {
  const probes = new Map<() => boolean, string>();
  const due = new Set<{ at: number }>();
  const busyNames = (): string[] => [...probes].filter(([isBusy]) => isBusy()).map(([, name]) => name);
  return {
    now: systemClock.now,
    wall: systemClock.wall,
    setTimer(callback, ms, options) {
      const entry = { at: systemClock.now() + ms };
      due.add(entry);
      const timer = systemClock.setTimer(
        () => {
          due.delete(entry);
          callback();
        },
        ms,
        options,
      );
      return {
        cancel() {
          due.delete(entry);
          timer.cancel();
        },
      };
    },
    track(what, isBusy) {
      probes.set(isBusy, what);
      return () => void probes.delete(isBusy);
    },
    async runUntilIdle(options = {}) {
      const horizon = typeof options.horizon === 'string' ? parseDuration(options.horizon) : (options.horizon ?? 1_000);
      if (horizon === undefined || !(horizon >= 0)) throw new Error(`runUntilIdle: horizon ${JSON.stringify(options.horizon)} is not a duration such as '1s', '5m' or 60000`);
      const giveUpAt = systemClock.now() + (options.timeoutMs ?? 30_000) + horizon;
      const limit = systemClock.now() + horizon;
      for (;;) {
        let quietSince = systemClock.now();
        while (systemClock.now() - quietSince < QUIET_MS) {
          await wait(POLL_MS);
          if (busyNames().length > 0) quietSince = systemClock.now();
          if (systemClock.now() > giveUpAt) throw new Error(`runUntilIdle: not idle after ${options.timeoutMs ?? 30_000} ms (${busyNames().join(', ') || 'timers within the horizon keep firing'})`);
        }
        const next = Math.min(...[...due].map((d) => d.at));
        if (!Number.isFinite(next) || next > limit) return;
        // Real time: a timer within the horizon is waited for.
        await wait(Math.max(0, next - systemClock.now()) + 1);
      }
    },
  };
}
