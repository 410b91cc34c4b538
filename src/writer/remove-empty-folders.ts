import { readdir, rmdir } from 'node:fs/promises';
import { join } from 'node:path';

/** The folders deleted files leave empty (src/api/v1, src/external/<group>/<version>), up to the project root. */
export async function removeEmptyFolders(root: string, deleted: readonly string[]): Promise<void> {
  const folders = new Set(deleted.flatMap((path) => path.split('/').slice(0, -1).map((_, i, parts) => parts.slice(0, i + 1).join('/'))));
  for (const folder of [...folders].sort((a, b) => b.length - a.length)) {
    const entries = await readdir(join(root, folder)).catch(() => undefined);
    if (entries?.length === 0) await rmdir(join(root, folder));
  }
}
