import type { PlannedChange } from './types.js';

/** One `ACTION path` line per file that a run creates, updates or leaves as the user's. */
export function formatPlan(changes: readonly PlannedChange[], options: { dryRun?: boolean } = {}): string {
  const lines = changes
    .filter((c) => c.action !== 'UNCHANGED')
    .map((c) => `${c.action.padEnd(6)} ${c.path}`);
  if (options.dryRun) lines.push('(dry run: nothing was written)');
  return lines.join('\n');
}
