import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cliVersion } from '../../src/version.js';
import { cleanUp, opgen, projectDir, readTree } from '../scaffold/run.js';
import { fixtureScaffold } from './fixture-scaffold.js';
import { editFile, upgradeTo } from './run-upgrade.js';

// Each refusal is one line, exit 1, and leaves every file as it was.

let dir: string;
beforeEach(async () => {
  dir = await projectDir('shop-operator');
  expect((await opgen(dir, 'init', '--domain', 'example.com', '--skip-install')).code).toBe(0);
});
afterEach(() => cleanUp(dir));

async function refused(run: () => Promise<{ code: number; stdout: string; stderr: string }>): Promise<string> {
  const before = await readTree(dir);
  const result = await run();
  expect(result.code).toBe(1);
  expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(await readTree(dir)).toEqual(before);
  return result.stderr;
}

describe('opgen upgrade refuses', () => {
  it('a directory without PROJECT', async () => {
    const empty = join(dir, '..');
    const result = await opgen(empty, 'upgrade');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: no PROJECT file in .*: not an opgen project \(run opgen upgrade in the root folder/);
  });

  it('a PROJECT from a newer opgen', async () => {
    await editFile(dir, 'PROJECT', `cliVersion: ${cliVersion}`, 'cliVersion: 99.0.0');
    expect(await refused(() => opgen(dir, 'upgrade'))).toMatch(
      /^PROJECT: error: this project was scaffolded by opgen 99\.0\.0, newer than this opgen \(.*\); nothing was written \(run a newer opgen: npx opgen@99\.0\.0 upgrade\)/,
    );
  });

  it('a PROJECT whose cliVersion is not a version, at its line', async () => {
    await editFile(dir, 'PROJECT', `cliVersion: ${cliVersion}`, 'cliVersion: latest');
    expect(await refused(() => opgen(dir, 'upgrade'))).toMatch(/^PROJECT:4:13: error: "cliVersion" must be an opgen version such as 0\.1\.0, not "latest"/);
  });

  it('--to another version than the running one, saying how to run that one', async () => {
    expect(await refused(() => opgen(dir, 'upgrade', '--to', '0.9.0'))).toMatch(
      new RegExp(`^error: --to 0\\.9\\.0: this opgen is ${cliVersion.replaceAll('.', '\\.')} and upgrades only to its own scaffold; nothing was written \\(run that release's opgen instead: npx opgen@0\\.9\\.0 upgrade\\)`),
    );
  });

  it('a git tree with uncommitted changes without --force, and upgrades it with --force', async () => {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'pipe' });
    git('init', '-q');
    git('add', '-A');
    git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'scaffold');
    await writeFile(join(dir, 'src/main.ts'), '// changed\n', { flag: 'a' });
    expect(await refused(() => upgradeTo(dir, fixtureScaffold))).toMatch(
      /^error: the git tree has uncommitted changes \(src\/main\.ts\); nothing was written \(commit or stash them first, .* or pass --force\)/,
    );
    expect((await upgradeTo(dir, fixtureScaffold, { force: true })).code).toBe(0);
  });
});
