const UNIT_MS: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * Milliseconds of a Go duration such as `10s`, `1m30s` or `500ms`: how client-go writes
 * the `timeout` query parameter the API server puts on a webhook's URL (the time left
 * of the webhook's `timeoutSeconds`). Undefined when `text` is not one.
 */
export function parseGoDuration(text: string | null | undefined): number | undefined {
  if (!text || !/^(?:\d+(?:\.\d+)?(?:ns|us|µs|ms|s|m|h))+$/.test(text)) return undefined;
  let total = 0;
  for (const [, value, unit] of text.matchAll(/(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/g)) total += Number(value) * UNIT_MS[unit!]!;
  return total;
}
