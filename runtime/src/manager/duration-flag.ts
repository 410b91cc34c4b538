import { parseDuration } from '../helpers/duration.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Milliseconds of a duration flag's value: a Go duration (`90s`, `10m`, `1h30m`) or whole
 * days (`365d`, which Go's durations lack but certificate lifetimes are counted in).
 * Throws a one-line error naming the flag unless the value is a positive duration.
 */
export function durationFlag(flag: string, text: string): number {
  const days = /^(\d+)d$/.exec(text);
  const ms = days ? Number(days[1]) * DAY_MS : parseDuration(text);
  if (ms === undefined || !(ms > 0)) throw new Error(`--${flag} must be a positive duration such as 90s, 10m, 24h or 365d, not "${text}"`);
  return ms;
}
