import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { opgen } from './run.js';

// What `opgen delete api` leaves of a project with webhooks must still build and lint: the hub's
// conversion rewritten for the spokes that remain, src/webhooks/setup.ts without the kind,
// and src/main.ts without setupWebhooks once the last webhook goes. The packages are
// installed as npm would publish them. Needs `npm run build` first; no control plane.

const repo = fileURLToPath(new URL('../../', import.meta.url));
let work: string;
let dir: string;

beforeAll(async () => {
  for (const built of ['dist/cli.js', 'runtime/dist/index.js']) {
    if (!existsSync(join(repo, built))) throw new Error(`${built} is missing: run npm run build first`);
  }
  work = await mkdtemp(join(tmpdir(), 'opgen-delete-webhook-build-'));
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

async function buildsTypeChecksAndLints(): Promise<void> {
  const build = await inProject('npm', ['run', 'build']);
  expect(build.exitCode, build.all).toBe(0);
  const typecheck = await inProject('npx', ['tsc', '--noEmit']);
  expect(typecheck.exitCode, typecheck.all).toBe(0);
  const lint = await inProject('npm', ['run', 'lint']);
  expect(lint.exitCode, lint.all).toBe(0);
}

const widget = (version: string) => ['--group', 'shop', '--version', version, '--kind', 'Widget'];

describe('a project after delete api of kinds with webhooks', () => {
  it(
    'builds, type-checks and lints with a spoke gone, and with the last webhook gone',
    async () => {
      const runtime = await pack(join(repo, 'runtime'));
      const cli = await pack(repo);
      await run('init', '--domain', 'example.com', '--runtime', `file:${runtime}`, '--cli', `file:${cli}`);
      await run('create', 'api', ...widget('v1'));
      await run('create', 'api', ...widget('v2'), '--no-controller');
      await run('create', 'api', ...widget('v3'), '--no-controller');
      await run('create', 'webhook', ...widget('v1'), '--defaulting', '--programmatic-validation', '--conversion', '--spoke', 'v2,v3');
      await run('create', 'webhook', ...widget('v2'), '--defaulting');
      await run('create', 'api', '--group', 'shop', '--version', 'v1', '--kind', 'Gadget');
      const install = await inProject('npm', ['install', '--no-audit', '--no-fund']);
      expect(install.exitCode, install.all).toBe(0);

      // v2 had its own webhook and was a spoke: the hub now converts v3 only.
      await run('delete', 'api', ...widget('v2'));
      const conversion = await readFile(join(dir, 'src/webhooks/v1/widget_conversion.ts'), 'utf8');
      expect(conversion).toContain('v3');
      expect(conversion).not.toContain('v2');
      expect(await readFile(join(dir, 'src/webhooks/setup.ts'), 'utf8')).not.toContain('v2/');
      await buildsTypeChecksAndLints();

      await run('delete', 'api', ...widget('v3'));
      await run('delete', 'api', ...widget('v1'));
      expect(existsSync(join(dir, 'src/webhooks'))).toBe(false);
      expect(await readFile(join(dir, 'src/main.ts'), 'utf8')).not.toContain('setupWebhooks');
      await rm(join(dir, 'dist'), { recursive: true, force: true });
      await buildsTypeChecksAndLints();
      expect(existsSync(join(dir, 'dist/main.js'))).toBe(true);
    },
    15 * 60_000,
  );
});
