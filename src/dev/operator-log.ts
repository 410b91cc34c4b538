/**
 * What of the operator's own output `opgen dev` shows: its reconciles are told one line
 * each from their records, so its JSON log lines at info and below are left out (`--logs`
 * shows them all), warnings and errors become one short line, and anything that is not a
 * log line (a `console.log`, a crash's stack) passes through as printed.
 */

/** pino's levels. */
const LEVELS: Record<number, string> = { 10: 'trace', 20: 'debug', 30: 'info', 40: 'warn', 50: 'error', 60: 'fatal' };
const WARN = 40;
const ERROR = 50;

/** The line to print for one line of the operator's output, or undefined to leave it out. */
export function operatorLine(line: string): string | undefined {
  if (!line.startsWith('{')) return line;
  let entry: { level?: unknown; msg?: unknown; err?: { message?: unknown }; reconcileID?: unknown; controller?: unknown };
  try {
    entry = JSON.parse(line) as typeof entry;
  } catch {
    return line;
  }
  if (typeof entry.level !== 'number') return line;
  if (entry.level < WARN) return undefined;
  // A reconcile's error is in its reconcile's line already.
  if (entry.level === ERROR && entry.reconcileID !== undefined) return undefined;
  const detail = typeof entry.err?.message === 'string' ? `: ${entry.err.message}` : '';
  const where = typeof entry.controller === 'string' ? ` (${entry.controller})` : '';
  return `operator ${LEVELS[entry.level] ?? entry.level}${where} ${String(entry.msg ?? '')}${detail}`;
}
