import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** The folders whose files define the project's kinds (its own and imported ones). */
const API_DIRS = ['src/api', 'src/external'];

/**
 * A digest of every API type file's path and text: when it changes between two builds, the
 * CRDs must be generated and installed again before the new code runs.
 */
export function apiFingerprint(root: string): string {
  const hash = createHash('sha256');
  const visit = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) visit(path);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) hash.update(`${relative(root, path)}\0${readFileSync(path, 'utf8')}\0`);
    }
  };
  for (const dir of API_DIRS) visit(join(root, dir));
  return hash.digest('hex');
}
