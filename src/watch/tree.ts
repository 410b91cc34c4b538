import { type FSWatcher, readdirSync, watch } from 'node:fs';
import { join } from 'node:path';

/** A watch on every folder of a tree; `sync` picks up folders created or removed since, until `close`. */
export interface TreeWatch {
  sync(): void;
  close(): void;
}

/**
 * Watches the folder `dir` and every folder below it (but node_modules), one non-recursive
 * watch each: a folder's watch sees its files change even when an editor saves by writing a
 * new file and renaming it over the old one, which a watch on the file itself would lose.
 */
export function watchTree(dir: string, onChange: () => void): TreeWatch {
  const watchers = new Map<string, FSWatcher>();
  let closed = false;
  const sync = () => {
    if (closed) return;
    const wanted = new Set([dir, ...folders(dir)]);
    for (const [path, watcher] of watchers) {
      if (!wanted.has(path)) {
        watcher.close();
        watchers.delete(path);
      }
    }
    for (const path of wanted) {
      if (watchers.has(path)) continue;
      try {
        const watcher = watch(path, onChange);
        // A folder removed under the watch ends it; the next sync forgets it.
        watcher.on('error', () => undefined);
        watchers.set(path, watcher);
      } catch {
        // Removed between listing and watching.
      }
    }
  };
  sync();
  return {
    sync,
    close: () => {
      closed = true;
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
    },
  };
}

function folders(dir: string): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .filter((e) => e.isDirectory() && e.name !== 'node_modules')
    .flatMap((e) => {
      const path = join(dir, e.name);
      return [path, ...folders(path)];
    });
}
