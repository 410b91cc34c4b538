/**
 * The released CRDs, parsed once per content. A release changes when a tag is made, but
 * `opgen manifests --check` (and every save under `--watch`) compares with it again: YAML
 * parsing is nearly all of that comparison's cost (about 10 ms for a 20 KB CRD), reading
 * the same documents back as JSON a hundredth of it. Entries are named by the SHA-256 of
 * the file's text, so an edited file is simply another entry.
 *
 * Best effort, like the compile cache: a cache that cannot be read or written (no home
 * directory, a read-only disk, a truncated entry) only makes the run parse again.
 *
 * @module
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { opgenCacheRoot } from '../compile-cache.js';

/** Version of the entries' shape: bump it when what `parse` returns changes. */
const FORMAT = 'v1';

/**
 * `parse(text)`, from the cache when this text was parsed before. Only a successful parse is
 * kept: a file that fails to parse fails again, with its own error, every time.
 */
export function parsedOnce<T>(text: string, parse: (text: string) => T, dir = join(opgenCacheRoot(), 'compat', FORMAT)): T {
  const entry = join(dir, `${createHash('sha256').update(text).digest('hex')}.json`);
  try {
    return JSON.parse(readFileSync(entry, 'utf8')) as T;
  } catch {
    // Not cached yet (or unreadable): parse it.
  }
  const parsed = parse(text);
  try {
    mkdirSync(dir, { recursive: true });
    // Written aside and renamed, so that a concurrent run never reads half an entry.
    const partial = `${entry}.${process.pid}.tmp`;
    writeFileSync(partial, JSON.stringify(parsed));
    renameSync(partial, entry);
  } catch {
    // A cache that cannot be written is only a slower next run.
  }
  return parsed;
}
