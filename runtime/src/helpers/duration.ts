const UNITS: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };

/**
 * Milliseconds of a Go duration string (`90s`, `1m30s`, `1h`, `500ms`), the format Go
 * operators' flags and operator-sdk's watches.yaml (`reconcilePeriod`) take; `undefined`
 * when it is not one.
 */
export function parseDuration(text: string): number | undefined {
  if (text === '0') return 0;
  const part = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/gy;
  let total = 0;
  let end = 0;
  for (let match = part.exec(text); match; match = part.exec(text)) {
    total += Number(match[1]) * UNITS[match[2]!]!;
    end = part.lastIndex;
  }
  return end === text.length && end > 0 ? total : undefined;
}
