/**
 * The values a built-in kind's Go types parse and write in a form of their own: a Time in UTC
 * to the second, a MicroTime in UTC to the microsecond (and only from text that has six
 * fraction digits), a Quantity in canonical units (`2.5` → `2500m`). A value neither parses
 * is kept as sent (the decoder's error for it is not reproduced, but for a MicroTime's
 * fraction).
 */
import { canonicalQuantity } from '../../../helpers/quantity.js';

export type ValueFormat = 'time' | 'micro-time' | 'quantity';

/** Go's RFC 3339 as `time.Parse` reads it: a date, a time, an optional fraction, `Z` or an offset. */
const RFC3339 = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(\.\d*)?(Z|[+-]\d\d:\d\d)$/;
const MICRO_LAYOUT = '2006-01-02T15:04:05.000000Z07:00';

/** A timestamp in UTC with `digits` fraction digits (Go truncates, never rounds). */
function utc(text: string, digits: number): string | undefined {
  const match = RFC3339.exec(text);
  if (!match) return undefined;
  const [, year, month, day, hour, minute, second, fraction = '', zone] = match;
  const offsetMinutes = zone === 'Z' ? 0 : (zone!.startsWith('-') ? -1 : 1) * (Number(zone!.slice(1, 3)) * 60 + Number(zone!.slice(4, 6)));
  const ms = Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second)) - offsetMinutes * 60_000;
  const whole = new Date(ms).toISOString().slice(0, 19);
  return digits === 0 ? `${whole}Z` : `${whole}.${fraction.slice(1).padEnd(digits, '0').slice(0, digits)}Z`;
}

/**
 * The value as the API server stores it; throws the decoder's message (without the
 * `Kind in version ... cannot be handled` prefix) for a MicroTime whose fraction is not six digits.
 */
export function formatted(format: ValueFormat, value: unknown): unknown {
  if (format === 'quantity') {
    if (typeof value !== 'string' && typeof value !== 'number') return value;
    try {
      return canonicalQuantity(value);
    } catch {
      return value;
    }
  }
  if (typeof value !== 'string') return value;
  if (format === 'time') return utc(value, 0) ?? value;
  const match = RFC3339.exec(value);
  if (!match) return value;
  const fraction = match[7] ?? '';
  if (fraction.length !== 7) {
    const rest = value.slice(19);
    throw new Error(`parsing time ${JSON.stringify(value)} as ${JSON.stringify(MICRO_LAYOUT)}: cannot parse ${JSON.stringify(rest)} as ".000000"`);
  }
  return utc(value, 6) ?? value;
}
