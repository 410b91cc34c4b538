/**
 * What of the operator's own output `opgen dev` shows: its reconciles are told one line
 * each from their records, so its JSON log lines at info and below are left out (`--logs`
 * shows them all), warnings and errors become one short line, and anything that is not a
 * log line (a `console.log`, a crash's stack) passes through as printed.
 */

/** pino's levels; the runtime's logger writes their names, pino's default their numbers. */
const LEVELS: Record<string, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 };
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
  const level = typeof entry.level === 'number' ? entry.level : LEVELS[String(entry.level)];
  if (level === undefined) return line;
  if (level < WARN) return undefined;
  // A reconcile's error is in its reconcile's line already.
  if (level === ERROR && entry.reconcileID !== undefined) return undefined;
  const name = Object.keys(LEVELS).find((key) => LEVELS[key] === level) ?? String(level);
  const detail = typeof entry.err?.message === 'string' ? `: ${entry.err.message}` : '';
  const where = typeof entry.controller === 'string' ? ` (${entry.controller})` : '';
  return `operator ${name}${where} ${String(entry.msg ?? '')}${detail}`;
}
