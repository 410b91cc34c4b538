import type { Area } from './scenario.js';

/** One scenario's result in a run of the suite. */
export interface Result {
  area: string;
  owner: string;
  scenario: string;
  /** The memory cluster answered as the real API server did. */
  passed: boolean;
  /** Listed in gaps.ts. */
  gap: boolean;
  /** Where the recordings first differ (see first-difference.ts), when they do. */
  difference?: string;
}

/** STATUS.md: the scenarios that differ, by the owner who fixes them, and the counts per area. */
export function renderStatus(results: Result[], areas: Area[]): string {
  const failing = results.filter((result) => !result.passed);
  const lines = [
    '# Differential suite status',
    '',
    'Written by `DIFF_STATUS=1 vitest run runtime/test/memory/differential/differential.integration.test.ts`.',
    `${results.length} scenarios ran; ${results.length - failing.length} agree with kube-apiserver 1.36.3, ${failing.length} differ.`,
    '',
    '| area | owner | scenarios | differ |',
    '|---|---|---|---|',
    ...areas.map((area) => {
      const mine = results.filter((result) => result.area === area.area);
      return `| ${area.area} | ${area.owner} | ${area.scenarios.length} | ${mine.filter((result) => !result.passed).length} |`;
    }),
  ];
  for (const owner of [...new Set(failing.map((result) => result.owner))].sort()) {
    lines.push('', `## ${owner}`, '');
    for (const result of failing.filter((r) => r.owner === owner)) {
      lines.push(`- ${result.area}: ${result.scenario}${result.gap ? ' (known gap, gaps.ts)' : ''}`);
      if (result.difference) lines.push(`  - step ${result.difference.replaceAll('|', '\\|')}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
