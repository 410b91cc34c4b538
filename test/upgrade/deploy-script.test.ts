import { existsSync } from 'node:fs';
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cliVersion } from '../../src/version.js';
import { cleanUp, opgen, projectDir } from '../scaffold/run.js';
import { editFile } from './run-upgrade.js';

// A project of 0.1.0 as released: no cliVersion in PROJECT, scripts/deploy.mjs copied in,
// npm scripts running it. Upgraded by the real command to this opgen's scaffold.

let dir: string;
const deployScript = 'scripts/deploy.mjs';
const moved = { 'crds:install': 'install', 'crds:uninstall': 'uninstall', deploy: 'deploy', undeploy: 'undeploy', 'build-installer': 'build-installer' };
const read = (path: string) => readFile(join(dir, path), 'utf8');

beforeEach(async () => {
  dir = await projectDir('shop-operator');
  expect((await opgen(dir, 'init', '--domain', 'example.com', '--skip-install')).code).toBe(0);
  expect((await opgen(dir, 'create', 'api', '--group', 'shop', '--version', 'v1', '--kind', 'Widget')).code).toBe(0);
  await editFile(dir, 'PROJECT', `cliVersion: ${cliVersion}\n`, '');
  for (const [script, command] of Object.entries(moved)) await editFile(dir, 'package.json', `"opgen ${command}"`, `"node ${deployScript} ${script}"`);
  await mkdir(join(dir, 'scripts'));
  await copyFile(new URL('../../src/templates/releases/0.1.0/deploy.mjs', import.meta.url), join(dir, deployScript));
});
afterEach(() => cleanUp(dir));

describe('opgen upgrade of a 0.1.0 project', () => {
  it('moves the npm scripts to the opgen commands, deletes the untouched deploy.mjs and prints the release notes', async () => {
    const result = await opgen(dir, 'upgrade');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^DELETE   scripts\/deploy\.mjs$/m);
    expect(result.stdout).toMatch(/^UPDATE   package\.json$/m);
    expect(result.stdout).toContain(`Upgrading from opgen 0.1.0's scaffold (PROJECT records none: the first release) to ${cliVersion}'s`);
    expect(result.stdout).toContain('Next: npm install (package.json changed), then npm test.');
    expect(result.stdout).toContain('What changed (CHANGELOG.md):\n\n## 0.1.0\n');
    expect(existsSync(join(dir, deployScript))).toBe(false);
    const { scripts } = JSON.parse(await read('package.json')) as { scripts: Record<string, string> };
    for (const [script, command] of Object.entries(moved)) expect(scripts[script]).toBe(`opgen ${command}`);
    expect(await read('PROJECT')).toContain(`cliVersion: ${cliVersion}\n`);
    // Generated files followed: the CRD of the kind is written.
    expect(existsSync(join(dir, 'config/crd/bases/shop.example.com_widgets.yaml'))).toBe(true);
  });

  it('keeps a deploy.mjs the user changed, saying so, and still moves the scripts', async () => {
    await writeFile(join(dir, deployScript), '// our tweak\n', { flag: 'a' });
    const result = await opgen(dir, 'upgrade');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^SKIP     scripts\/deploy\.mjs\n {9}the new scaffold no longer has it, and you changed it: it stays yours$/m);
    expect(await read(deployScript)).toContain('// our tweak\n');
    const { scripts } = JSON.parse(await read('package.json')) as { scripts: Record<string, string> };
    expect(scripts.deploy).toBe('opgen deploy');
  });
});
