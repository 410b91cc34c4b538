/**
 * The project's own `@opgen/runtime/testing`, loaded from its node_modules at run time: the
 * CLI carries no runtime code, and the cluster `opgen dev` serves is the one of the runtime
 * version the operator runs on.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { UserError } from '../errors.js';

export type ProjectTesting = typeof import('@opgen/runtime/testing');

/** Finds `@opgen/runtime` from `root` up (npm workspaces hoist it) and imports its `./testing` entry. */
export function importProjectTesting(root: string): ProjectTesting {
  for (let dir = root; ; dir = dirname(dir)) {
    const manifest = join(dir, 'node_modules', '@opgen', 'runtime', 'package.json');
    if (existsSync(manifest)) {
      const { exports } = JSON.parse(readFileSync(manifest, 'utf8')) as { exports?: Record<string, { import?: string }> };
      const entry = exports?.['./testing']?.import;
      if (!entry) throw new UserError(`${manifest} has no ./testing entry`, undefined, 'update @opgen/runtime');
      // require() of the ES module (Node >= 20.19): the CLI's bundle has no import() of files outside it.
      const testing = createRequire(manifest)(join(dirname(manifest), entry)) as ProjectTesting;
      if (typeof testing.serveMemoryCluster !== 'function') throw new UserError(`the project's @opgen/runtime cannot serve a memory cluster`, undefined, 'update @opgen/runtime to the version of this opgen');
      return testing;
    }
    if (dirname(dir) === dir) break;
  }
  throw new UserError(`@opgen/runtime is not installed in ${root}`, undefined, 'run npm install');
}
