/**
 * What a re-import leaves behind: the files an earlier import of the same source wrote that
 * the source no longer gives (a CRD it dropped, a version it stopped serving). Each imported
 * file names its source in its header, so only that source's files are ever removed; a
 * folder's `groupversion_info.ts` goes with the last kind in it.
 *
 * @module
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, posix, relative, sep } from 'node:path';
import { externalApiRoot } from '../project/model.js';
import type { GeneratedFile } from '../writer/index.js';
import { externalCrdRoot, importedFromLine } from './generate.js';

/** Paths, relative to `root`, of `source`'s earlier files that `files` no longer has. */
export async function staleImportFiles(root: string, source: string, files: readonly GeneratedFile[]): Promise<string[]> {
  const kept = new Set(files.map((f) => f.path));
  const mark = importedFromLine(source, '');
  const candidates = [...(await listFiles(root, externalCrdRoot)), ...(await listFiles(root, externalApiRoot))];
  const stale: string[] = [];
  for (const path of candidates) {
    if (kept.has(path) || !(path.endsWith('.yaml') || path.endsWith('_types.ts'))) continue;
    // The header is in the first lines; the rest of a large CRD need not be searched.
    if ((await readFile(join(root, path), 'utf8')).slice(0, 1_000).includes(mark)) stale.push(path);
  }
  const removed = new Set(stale);
  for (const path of candidates) {
    if (posix.basename(path) !== 'groupversion_info.ts' || kept.has(path)) continue;
    const dir = posix.dirname(path);
    const left = candidates.filter((p) => posix.dirname(p) === dir && p.endsWith('_types.ts') && !removed.has(p));
    const added = [...kept].some((p) => posix.dirname(p) === dir);
    if (left.length === 0 && !added && candidates.some((p) => removed.has(p) && posix.dirname(p) === dir)) stale.push(path);
  }
  return stale.sort();
}

/** Files under `dir` (relative to `root`), recursively, as `/`-separated relative paths; none when it is absent. */
async function listFiles(root: string, dir: string): Promise<string[]> {
  try {
    const entries = await readdir(join(root, dir), { recursive: true, withFileTypes: true });
    return entries.filter((e) => e.isFile()).map((e) => relative(root, join(e.parentPath, e.name)).split(sep).join('/'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}
