import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createTwoFilesPatch } from 'diff';
import type { PlannedChange } from '../writer/index.js';

/**
 * A unified diff (`git diff` style, `a/` and `b/` prefixes) from each file on disk to what
 * the run would write, for the files it would create or update: what `--check` shows CI.
 */
export async function staleDiff(root: string, changes: readonly PlannedChange[]): Promise<string> {
  const patches: string[] = [];
  for (const change of changes) {
    if (change.action !== 'CREATE' && change.action !== 'UPDATE') continue;
    const current = change.action === 'CREATE' ? '' : await readFile(join(root, change.path), 'utf8');
    const from = change.action === 'CREATE' ? '/dev/null' : `a/${change.path}`;
    const patch = createTwoFilesPatch(from, `b/${change.path}`, current, change.file.content, undefined, undefined, { context: 3 });
    // The first line is jsdiff's "Index:"/separator header; git's shape starts at ---.
    patches.push(patch.slice(patch.indexOf('--- ')));
  }
  return patches.join('');
}
