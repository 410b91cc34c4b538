import type { UpgradeStep } from './plan.js';

/** One `ACTION path` line per file, with a note under a skipped one; then a dry run's disclaimer. */
export function formatUpgrade(steps: readonly UpgradeStep[], options: { dryRun: boolean }): string {
  const lines: string[] = [];
  for (const step of steps) {
    lines.push(`${step.action.padEnd(8)} ${step.path}`);
    if (step.note) lines.push(`         ${step.note}`);
  }
  if (options.dryRun) lines.push('(dry run: nothing was written)');
  return lines.join('\n');
}
