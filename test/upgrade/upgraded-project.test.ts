import { existsSync } from 'node:fs';
import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanUp, opgen, projectDir } from '../scaffold/run.js';
import { fixtureScaffold } from './fixture-scaffold.js';
import { applyUserEdits, upgradeTo } from './run-upgrade.js';

// A project edited by its user and upgraded to the fixture scaffold is still a working
// project: it builds, type-checks, and its own controller test passes (on the memory cluster,
// as the scaffold's tests run by default). opgen's installed packages stand in for the project's npm
// install. Needs `npm run build` first (the runtime is imported from runtime/dist).

const repo = fileURLToPath(new URL('../../', import.meta.url));
const bin = (name: string) => join(repo, 'node_modules/.bin', name);
let dir: string;

beforeAll(async () => {
  if (!existsSync(join(repo, 'runtime/dist/index.js'))) throw new Error('runtime/dist is missing: run npm run build first');
  dir = await projectDir('shop-operator');
  expect((await opgen(dir, 'init', '--domain', 'example.com', '--skip-install')).code).toBe(0);
  expect((await opgen(dir, 'create', 'api', '--group', 'shop', '--version', 'v1', '--kind', 'Widget')).code).toBe(0);
  await applyUserEdits(dir);
  await symlink(join(repo, 'node_modules'), join(dir, 'node_modules'), 'dir');
});
afterAll(async () => {
  if (dir) await cleanUp(dir);
});

describe('an upgraded project', () => {
  it(
    'builds, type-checks and passes its own tests',
    async () => {
      const upgrade = await upgradeTo(dir, fixtureScaffold);
      expect(upgrade.code, upgrade.stderr).toBe(0);
      expect(upgrade.stdout).toMatch(/^MERGE    src\/controllers\/widget_controller\.ts$/m);

      const run = (command: string, args: string[]) => execa(command, args, { cwd: dir, all: true, reject: false, env: { NO_COLOR: '1' } });
      const build = await run(bin('tsc'), ['-p', 'tsconfig.build.json']);
      expect(build.exitCode, build.all).toBe(0);
      expect(existsSync(join(dir, 'dist/controllers/widget_controller.js'))).toBe(true);
      const typecheck = await run(bin('tsc'), ['--noEmit', '-p', 'tsconfig.json']);
      expect(typecheck.exitCode, typecheck.all).toBe(0);

      const test = await run(bin('vitest'), ['run']);
      expect(test.exitCode, test.all).toBe(0);
      expect(test.all).toMatch(/Tests\s+1 passed/);
    },
    10 * 60_000,
  );
});
