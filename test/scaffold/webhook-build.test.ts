import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { opgen } from './run.js';

// What `opgen create webhook` scaffolds must work as written: a project with a kind in two
// versions gets defaulting, validating and conversion webhooks, installs the packages as
// npm would publish them, builds, and passes its OWN tests, which start a real control
// plane and have the API server call the webhooks. Needs `npm run build` first.

const repo = fileURLToPath(new URL('../../', import.meta.url));
let work: string;
let dir: string;

beforeAll(async () => {
  for (const built of ['dist/cli.js', 'runtime/dist/index.js']) {
    if (!existsSync(join(repo, built))) throw new Error(`${built} is missing: run npm run build first`);
  }
  work = await mkdtemp(join(tmpdir(), 'opgen-webhook-build-'));
  dir = join(work, 'shop-operator');
  await mkdir(dir);
});

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

async function pack(packageDir: string): Promise<string> {
  const { stdout } = await execa('npm', ['pack', '--json', '--pack-destination', work], { cwd: packageDir });
  const [packed] = JSON.parse(stdout) as { filename: string }[];
  return join(work, packed!.filename);
}

const inProject = (command: string, args: string[]) => execa(command, args, { cwd: dir, all: true, reject: false, env: { NO_COLOR: '1' } });

async function run(...args: string[]): Promise<void> {
  const result = await opgen(dir, ...args);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
}

describe('a project with webhooks', () => {
  it(
    'builds and passes its own defaulting, validation and conversion tests against the API server',
    async () => {
      const runtime = await pack(join(repo, 'runtime'));
      const cli = await pack(repo);
      await run('init', '--domain', 'example.com', '--runtime', `file:${runtime}`, '--cli', `file:${cli}`);
      await run('create', 'api', '--group', 'shop', '--version', 'v1', '--kind', 'Widget');
      await run('create', 'api', '--group', 'shop', '--version', 'v2', '--kind', 'Widget', '--no-controller');
      await run('create', 'webhook', '--group', 'shop', '--version', 'v2', '--kind', 'Widget', '--defaulting', '--programmatic-validation', '--conversion', '--spoke', 'v1');

      // create webhook added fast-check to package.json: install it.
      const install = await inProject('npm', ['install', '--no-audit', '--no-fund']);
      expect(install.exitCode, install.all).toBe(0);
      const build = await inProject('npm', ['run', 'build']);
      expect(build.exitCode, build.all).toBe(0);
      expect(existsSync(join(dir, 'dist/webhooks/setup.js'))).toBe(true);
      const typecheck = await inProject('npx', ['tsc', '--noEmit']);
      expect(typecheck.exitCode, typecheck.all).toBe(0);
      const lint = await inProject('npm', ['run', 'lint']);
      expect(lint.exitCode, lint.all).toBe(0);

      const test = await inProject('npm', ['test', '--', '--reporter=verbose']);
      expect(test.exitCode, test.all).toBe(0);
      for (const name of [
        'default the tier label of a new Widget',
        'refuse a change of the tier label, with the reason',
        'v1 → v2 → v1 is the identity',
        'v2 → v1 → v2 keeps every field',
        'reads a Widget written as v1 as v2, and back unchanged',
        'reports a new Widget as Ready',
      ]) {
        expect(test.all).toContain(name);
      }
      expect(test.all).toMatch(/Tests\s+6 passed/);
    },
    20 * 60_000,
  );
});
