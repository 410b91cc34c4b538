import { readFileSync } from 'node:fs';

/** A difference from controller-gen that opgen makes on purpose, as docs/api-types.md lists it. */
export interface DeliberateDifference {
  /** Glob over `<file> <path>` of a {@link Difference}; `*` matches any run of characters. */
  where: string;
  what: string;
  why: string;
  matches(where: string): boolean;
}

const heading = '## Deliberate differences from controller-gen';

/**
 * The table of deliberate differences in docs/api-types.md, which users read: the suite
 * accepts exactly these, so the page and the behaviour cannot drift apart.
 */
export function deliberateDifferences(): DeliberateDifference[] {
  const doc = readFileSync(new URL('../../docs/api-types.md', import.meta.url), 'utf8');
  const start = doc.indexOf(heading);
  if (start < 0) throw new Error(`docs/api-types.md has no section "${heading}"`);
  const section = doc.slice(start + heading.length).split(/\n## /)[0] ?? '';
  const rows = section.split('\n').filter((line) => /^\|\s*`/.test(line));
  return rows.map((row) => {
    const [where = '', what = '', why = ''] = row.split(/(?<!\\)\|/).slice(1, -1).map((cell) => cell.trim());
    const pattern = where.replace(/^`|`$/g, '');
    const regex = new RegExp(`^${pattern.split('*').map(escape).join('.*')}$`);
    return { where: pattern, what, why, matches: (w: string) => regex.test(w) };
  });
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
