import { join } from 'node:path';
import type { GeneratedFile, PlannedChange } from './types.js';
import { readBytesIfExists } from '../read-if-exists.js';

/** Compares generated files with what is on disk under `root`, without writing. */
export async function planChanges(
  root: string,
  files: readonly GeneratedFile[],
  options: { force?: boolean } = {},
): Promise<PlannedChange[]> {
  const seen = new Set<string>();
  for (const file of files) {
    if (seen.has(file.path)) throw new Error(`two generators produced ${file.path}`);
    seen.add(file.path);
  }
  const current = await Promise.all(files.map((file) => readBytesIfExists(join(root, file.path))));
  const changes = files.map((file, i): PlannedChange => ({ path: file.path, file, action: decide(file, current[i], options.force ?? false) }));
  return changes.sort((a, b) => a.path.localeCompare(b.path));
}

function decide(file: GeneratedFile, current: Buffer | undefined, force: boolean): PlannedChange['action'] {
  if (current === undefined) return 'CREATE';
  // Compared as bytes, as written: the file on disk need not be decoded.
  if (current.equals(Buffer.from(file.content))) return 'UNCHANGED';
  switch (file.ownership) {
    case 'generated':
      return 'UPDATE';
    case 'once':
      return 'SKIP';
    case 'user':
      return force ? 'UPDATE' : 'CONFLICT';
  }
}

