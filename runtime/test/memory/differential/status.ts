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

/**
 * Who most likely fixes a difference: a CEL or schema message points at the schema part,
 * managedFields and apply conflicts at the apply part, whatever the scenario's area.
 */
function likelyOwner(result: Result): string {
  const difference = result.difference ?? '';
  if (/evaluating rule|in body (should|must)|openAPIV3Schema|x-kubernetes-validations/.test(difference)) return 'schema';
  if (/managedFields|fieldsV1|Apply failed/.test(difference)) return 'ssa';
  return result.owner;
}

/** STATUS.md: the scenarios that differ, by the owner who fixes them, and the counts per area. */
export function renderStatus(results: Result[], areas: Area[]): string {
  const failing = results.filter((result) => !result.passed);
  const lines = [
    '# Differential suite status',
    '',
    'Written by `DIFF_STATUS=1 vitest run runtime/test/memory/differential/differential.integration.test.ts`.',
    `${results.length} scenarios ran; ${results.length - failing.length} agree with kube-apiserver 1.36.3, ${failing.length} differ.`,
    'Each differing scenario is listed under the part that most likely fixes it (from where it first differs; the table counts by area).',
    '',
    '| area | owner | scenarios | differ |',
    '|---|---|---|---|',
    ...areas.map((area) => {
      const mine = results.filter((result) => result.area === area.area);
      return `| ${area.area} | ${area.owner} | ${area.scenarios.length} | ${mine.filter((result) => !result.passed).length} |`;
    }),
  ];
  // One cause often breaks many scenarios: the commonest first differences, fix these first.
  const counts = new Map<string, { count: number; owner: string }>();
  for (const result of failing) {
    if (!result.difference) continue;
    const key = result.difference.replace(/^\[\d+\]/, '');
    const entry = counts.get(key) ?? { count: 0, owner: likelyOwner(result) };
    entry.count += 1;
    counts.set(key, entry);
  }
  const common = [...counts].filter(([, entry]) => entry.count > 2).sort((a, b) => b[1].count - a[1].count).slice(0, 10);
  if (common.length > 0) {
    lines.push('', '## Commonest first differences', '', '| scenarios | owner | where, and what each side answered |', '|---|---|---|');
    for (const [key, entry] of common) lines.push(`| ${entry.count} | ${entry.owner} | ${key.replaceAll('|', '\\|')} |`);
  }
  for (const owner of [...new Set(failing.map(likelyOwner))].sort()) {
    lines.push('', `## ${owner}`, '');
    for (const result of failing.filter((r) => likelyOwner(r) === owner)) {
      lines.push(`- ${result.area}: ${result.scenario}${result.gap ? ' (known gap, gaps.ts)' : ''}`);
      if (result.difference) lines.push(`  - step ${result.difference.replaceAll('|', '\\|')}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/**
 * `text` with the section under `heading` (to the next `## ` heading or the end) replaced
 * by `section`, or `section` appended: the fuzz run and the scenarios each rewrite their own
 * part of STATUS.md.
 */
export function replaceSection(text: string, heading: string, section: string): string {
  const start = text.indexOf(`${heading}\n`);
  if (start < 0) return `${text.trimEnd()}\n\n${section}`;
  const end = text.indexOf('\n## ', start + heading.length);
  return `${text.slice(0, start)}${section}${end < 0 ? '' : text.slice(end + 1)}`;
}

/** The section of `text` under `heading`, to the next `## ` heading or the end ('' when absent). */
export function sectionOf(text: string, heading: string): string {
  const start = text.indexOf(`${heading}\n`);
  if (start < 0) return '';
  const end = text.indexOf('\n## ', start + heading.length);
  return text.slice(start, end < 0 ? undefined : end + 1);
}

/** The heading of the fuzz run's part of STATUS.md (runtime/test/memory/fuzz). */
export const FUZZ_HEADING = '## Fuzzing: agreement per area';
