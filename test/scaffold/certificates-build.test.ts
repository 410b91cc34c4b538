import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { parseAllDocuments } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { opgen } from './run.js';

// A project whose webhooks switched certificate mode (`opgen edit --webhook-certificates`)
// still builds, type-checks and lints, its own `npm run manifests` runs, and kustomize builds
// the deployable config/default of the new mode. The packages are installed as npm would
// publish them. Needs `npm run build` first and kubectl; no control plane.

const repo = fileURLToPath(new URL('../../', import.meta.url));
let work: string;
let dir: string;

beforeAll(async () => {
  for (const built of ['dist/cli.js', 'runtime/dist/index.js']) {
    if (!existsSync(join(repo, built))) throw new Error(`${built} is missing: run npm run build first`);
  }
  work = await mkdtemp(join(tmpdir(), 'opgen-certificates-build-'));
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

async function buildsTypeChecksLintsAndGenerates(): Promise<void> {
  await rm(join(dir, 'dist'), { recursive: true, force: true });
  for (const [command, args] of [['npm', ['run', 'build']], ['npx', ['tsc', '--noEmit']], ['npm', ['run', 'lint']], ['npm', ['run', 'manifests']]] as const) {
    const result = await inProject(command, [...args]);
    expect(result.exitCode, `${command} ${args.join(' ')}\n${result.all}`).toBe(0);
  }
  expect(existsSync(join(dir, 'dist/main.js'))).toBe(true);
}

/** The kinds and names `kubectl kustomize config/default` builds. */
async function deployed(): Promise<string[]> {
  const result = await inProject('kubectl', ['kustomize', 'config/default']);
  expect(result.exitCode, result.all).toBe(0);
  return parseAllDocuments(result.stdout).map((d) => {
    const o = d.toJSON() as { kind: string; metadata: { name: string } };
    return `${o.kind}/${o.metadata.name}`;
  });
}

const widget = (version: string) => ['--group', 'shop', '--version', version, '--kind', 'Widget'];

describe('a project after edit --webhook-certificates', () => {
  it(
    'builds, type-checks, lints and generates its manifests in each mode, and deploys that mode',
    async () => {
      const runtime = await pack(join(repo, 'runtime'));
      const cli = await pack(repo);
      await run('init', '--domain', 'example.com', '--runtime', `file:${runtime}`, '--cli', `file:${cli}`);
      await run('create', 'api', ...widget('v1'));
      await run('create', 'api', ...widget('v2'), '--no-controller');
      await run('create', 'webhook', ...widget('v2'), '--defaulting', '--programmatic-validation', '--conversion', '--spoke', 'v1');
      const install = await inProject('npm', ['install', '--no-audit', '--no-fund']);
      expect(install.exitCode, install.all).toBe(0);

      await run('edit', '--webhook-certificates', 'cert-manager');
      await buildsTypeChecksLintsAndGenerates();
      const certManager = await deployed();
      expect(certManager).toEqual(expect.arrayContaining(['Issuer/shop-operator-selfsigned-issuer', 'Certificate/shop-operator-serving-cert']));
      expect(certManager.filter((o) => o.includes('webhook-certs'))).toEqual([]);

      await run('edit', '--webhook-certificates', 'built-in');
      await buildsTypeChecksLintsAndGenerates();
      const builtIn = await deployed();
      expect(builtIn).toEqual(expect.arrayContaining(['Role/shop-operator-webhook-certs-role', 'ClusterRole/shop-operator-webhook-certs-role']));
      expect(builtIn.filter((o) => o.startsWith('Issuer/') || o.startsWith('Certificate/'))).toEqual([]);
    },
    15 * 60_000,
  );
});
