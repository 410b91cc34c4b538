/**
 * The project's own `@opgen/runtime` entries, loaded from its node_modules at run time: the
 * CLI carries no runtime code, and the cluster `opgen dev` serves (and the cache its live page
 * reads it through) is the one of the runtime version the operator runs on.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { UserError } from '../errors.js';

export type ProjectTesting = typeof import('@opgen/runtime/testing');
export type ProjectCache = typeof import('@opgen/runtime/cache');

/** The project's `@opgen/runtime/testing`, checked to serve a memory cluster. */
export function importProjectTesting(root: string): ProjectTesting {
  const testing = importProjectEntry(root, './testing') as ProjectTesting;
  if (typeof testing.serveMemoryCluster !== 'function') throw new UserError(`the project's @opgen/runtime cannot serve a memory cluster`, undefined, 'update @opgen/runtime to the version of this opgen');
  return testing;
}

/** The project's `@opgen/runtime/cache`: the informers the live page watches the memory cluster with. */
export function importProjectCache(root: string): ProjectCache {
  return importProjectEntry(root, './cache') as ProjectCache;
}

/** Finds `@opgen/runtime` from `root` up (npm workspaces hoist it) and imports its `entry` export. */
function importProjectEntry(root: string, entry: string): unknown {
  for (let dir = root; ; dir = dirname(dir)) {
    const manifest = join(dir, 'node_modules', '@opgen', 'runtime', 'package.json');
    if (existsSync(manifest)) {
      const { exports } = JSON.parse(readFileSync(manifest, 'utf8')) as { exports?: Record<string, { import?: string }> };
      const file = exports?.[entry]?.import;
      if (!file) throw new UserError(`${manifest} has no ${entry} entry`, undefined, 'update @opgen/runtime');
      // require() of the ES module (Node >= 20.19): the CLI's bundle has no import() of files outside it.
      return createRequire(manifest)(join(dirname(manifest), file));
    }
    if (dirname(dir) === dir) break;
  }
  throw new UserError(`@opgen/runtime is not installed in ${root}`, undefined, 'run npm install');
}
