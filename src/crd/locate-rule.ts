import { relative } from 'node:path';
import type { Location } from '../errors.js';

/**
 * Where a CEL expression was written in the API files: the marker line holding its text
 * (nearest above `near` when several do), with the column of `offset` (1-based, in the
 * expression) inside it; undefined when no marker line holds it verbatim.
 */
export function locateExpression(root: string, texts: ReadonlyMap<string, string>, expression: string, column: number | undefined, near: Location | undefined): Location | undefined {
  const forms = [expression, expression.replace(/\\/g, '\\\\').replace(/"/g, '\\"')];
  const found: Location[] = [];
  for (const [path, text] of texts) {
    const file = relative(root, path);
    text.split('\n').forEach((line, index) => {
      if (!line.includes('+')) return;
      for (const form of forms) {
        const at = line.indexOf(form);
        if (at < 0) continue;
        found.push({ file, line: index + 1, column: at + 1 + (column ?? 1) - 1 });
        return;
      }
    });
  }
  if (found.length <= 1 || !near) return found[0];
  const above = found.filter((f) => f.file === near.file && (f.line ?? 0) <= (near.line ?? 0));
  return above.at(-1) ?? found[0];
}
