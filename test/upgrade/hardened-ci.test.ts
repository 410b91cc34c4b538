import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cliVersion } from '../../src/version.js';
import { cleanUp, opgen, projectDir } from '../scaffold/run.js';
import { editFile } from './run-upgrade.js';

// A 0.1.0 project as released (no cliVersion in PROJECT): its CI and image as 0.1.0 wrote
// them (actions by tag, no permissions, Node.js 20, node:26-slim, an exclude-list
// .dockerignore), one workflow edited by its user. The upgrade brings them to the hardened
// scaffold by the three-way merge and keeps the edit.

let dir: string;
let fresh: string;
const release010 = (path: string) => readFile(new URL(`../../src/templates/releases/0.1.0/${path}`, import.meta.url), 'utf8');
const read = (root: string, path: string) => readFile(join(root, path), 'utf8');
const userStep = '      - name: Lint the commit messages\n        run: npx commitlint --last\n';

async function scaffoldInto(root: string): Promise<void> {
  const run = async (...args: string[]) => expect((await opgen(root, ...args)).code).toBe(0);
  await run('init', '--domain', 'example.com', '--skip-install');
  await run('create', 'api', '--group', 'shop', '--version', 'v1', '--kind', 'Widget');
}

beforeEach(async () => {
  dir = await projectDir('shop-operator');
  fresh = await projectDir('fresh-operator');
  await scaffoldInto(dir);
  await scaffoldInto(fresh);
  await editFile(dir, 'PROJECT', `cliVersion: ${cliVersion}\n`, '');
  for (const name of ['lint.yml', 'test.yml', 'test-e2e.yml']) await writeFile(join(dir, '.github/workflows', name), await release010(`workflows/${name}`));
  await writeFile(join(dir, 'Dockerfile'), await release010('init/Dockerfile.hbs'));
  await writeFile(join(dir, '.dockerignore'), await release010('init/dockerignore.hbs'));
  await rm(join(dir, '.github/workflows/release.yml'));
  await rm(join(dir, '.github/dependabot.yml'));
  // The user's own step, at the end of the lint job.
  await writeFile(join(dir, '.github/workflows/lint.yml'), `${await read(dir, '.github/workflows/lint.yml')}${userStep}`);
});
afterEach(async () => {
  await cleanUp(dir);
  await cleanUp(fresh);
});

describe('opgen upgrade of a 0.1.0 project', () => {
  it('hardens its workflows (merged with the user\'s edit) and its image, and adds the release workflow and Dependabot', async () => {
    const result = await opgen(dir, 'upgrade', '--force');
    expect(result.code, result.stderr).toBe(0);
    for (const line of [
      'MERGE    .github/workflows/lint.yml',
      'UPDATE   .github/workflows/test.yml',
      'UPDATE   .github/workflows/test-e2e.yml',
      'CREATE   .github/workflows/release.yml',
      'CREATE   .github/dependabot.yml',
      'UPDATE   Dockerfile',
      'UPDATE   .dockerignore',
    ]) {
      expect(result.stdout).toContain(`${line}\n`);
    }
    // Untouched files become exactly what a new project gets.
    for (const path of ['.github/workflows/test.yml', '.github/workflows/test-e2e.yml', '.github/workflows/release.yml', '.github/dependabot.yml', 'Dockerfile', '.dockerignore']) {
      expect(await read(dir, path), path).toBe(await read(fresh, path));
    }
    // The edited one: the new scaffold with the user's step still at its end.
    expect(await read(dir, '.github/workflows/lint.yml')).toBe(`${await read(fresh, '.github/workflows/lint.yml')}${userStep}`);
    expect(existsSync(join(dir, '.github/workflows/lint.yml'))).toBe(true);
  });
});
