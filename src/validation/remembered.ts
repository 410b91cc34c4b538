/**
 * Checks remembered between runs of the built CLI. A check that passed on some text (a CEL
 * rule, a schema's JSON) is noted, by the text's SHA-256, in opgen's cache, and the next run
 * skips it: most runs of `opgen manifests` change one kind, or none. A check with problems is
 * never noted, so its errors are reported, located, every run.
 *
 * Only the bundled CLI remembers, under a fingerprint of its own file (size and modification
 * time): a rebuilt or upgraded opgen, whose checks may refuse more, checks everything again.
 * Best effort, like the compile cache: a cache that cannot be read or written only checks again.
 *
 * @module
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { opgenCacheRoot } from '../compile-cache.js';

/** This build's notes directory, found once per process; null when not remembering. */
let notes: string | null | undefined;

/** Where this build of the CLI keeps its notes; undefined outside the bundle or without a cache. */
export function notesDir(): string | undefined {
  if (notes !== undefined) return notes ?? undefined;
  notes = null;
  try {
    // In a bundle (dist/opgen/*.cjs) `__filename` is the bundle; as ES modules (dist/, tests) there is none.
    if (typeof __filename !== 'string' || !__filename.endsWith('.cjs')) return undefined;
    const { size, mtimeMs } = statSync(__filename);
    const root = join(opgenCacheRoot(), 'checked');
    // Each bundle (cli.cjs, manifests.cjs) keeps its own notes beside the other's.
    const bundle = basename(__filename, '.cjs');
    const dir = join(root, `${bundle}-${size}-${Math.round(mtimeMs)}`);
    if (!existsSync(dir)) {
      // Notes of other builds of this bundle can never match again.
      for (const stale of existsSync(root) ? readdirSync(root) : []) if (stale.startsWith(`${bundle}-`)) rmSync(join(root, stale), { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
    }
    notes = dir;
  } catch {
    // No cache: every run checks.
  }
  return notes ?? undefined;
}

/**
 * `check()`, unless `subject` passed it before in this build (then `passed`); notes it when
 * `passes(result)`. `kind` keeps different checks of one text apart.
 */
export function remembered<T>(kind: string, subject: string, check: () => T, passes: (result: T) => boolean, passed: T, dir: string | undefined = notesDir()): T {
  if (!dir) return check();
  const note = join(dir, `${kind}-${createHash('sha256').update(subject).digest('hex')}`);
  if (existsSync(note)) return passed;
  const result = check();
  if (passes(result)) {
    try {
      writeFileSync(note, '');
    } catch {
      // Checked again next run.
    }
  }
  return result;
}
