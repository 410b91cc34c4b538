/**
 * CEL checks remembered between runs. Type-checking and costing every rule is most of what
 * CEL rules add to `opgen manifests` (about 0.3 s for 300 rules, loading cel-js included),
 * while a run usually changes one kind, or none. A schema whose rules all passed is noted, by
 * the SHA-256 of its JSON, in opgen's cache; the next run skips it. A schema with problems
 * is never noted: its errors are reported, located, every run.
 *
 * Only the bundled CLI remembers, under a fingerprint of its own file (size and modification
 * time): a rebuilt or upgraded opgen, whose checker may refuse more, checks everything again.
 * Best effort, like the compile cache: a cache that cannot be read or written only checks again.
 *
 * @module
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { checkCelTypes, type CelTypeProblem } from '@opgen/runtime/internal/cel';
import { opgenCacheRoot } from '../compile-cache.js';
import type { JSONSchemaProps } from '../schema/types.js';

/** The directory of this build of the CLI's notes, made once per process; undefined when not remembering. */
let notes: string | null | undefined;

function notesDir(): string | undefined {
  if (notes !== undefined) return notes ?? undefined;
  notes = null;
  try {
    // In the bundle (dist/opgen/cli.cjs) `__filename` is the bundle; as ES modules (dist/, tests) there is none.
    if (typeof __filename !== 'string' || !__filename.endsWith('.cjs')) return undefined;
    const { size, mtimeMs } = statSync(__filename);
    const root = join(opgenCacheRoot(), 'cel-checked');
    const dir = join(root, `${size}-${Math.round(mtimeMs)}`);
    if (!existsSync(dir)) {
      // Notes of other builds can never match again.
      for (const stale of existsSync(root) ? readdirSync(root) : []) rmSync(join(root, stale), { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
    }
    notes = dir;
  } catch {
    // No cache: every run checks.
  }
  return notes ?? undefined;
}

/** {@link checkCelTypes}, skipped for a schema this build of opgen found without problems before. */
export function celTypeProblems(schema: JSONSchemaProps, dir: string | undefined = notesDir()): CelTypeProblem[] {
  if (!dir) return checkCelTypes(schema);
  const note = join(dir, createHash('sha256').update(JSON.stringify(schema)).digest('hex'));
  if (existsSync(note)) return [];
  const problems = checkCelTypes(schema);
  if (problems.length === 0) {
    try {
      writeFileSync(note, '');
    } catch {
      // Checked again next run.
    }
  }
  return problems;
}
