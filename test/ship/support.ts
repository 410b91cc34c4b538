import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveBinaries } from '@opgen/runtime/testing';
import { execa } from 'execa';
import { expect } from 'vitest';
import { opgenOk } from '../scaffold/run.js';

// What the ship tests share: a scaffolded operator whose controller needs its RBAC markers,
// the kubectl of the test control plane, and ways to run the project's npm scripts.

export const repo = fileURLToPath(new URL('../../', import.meta.url));
const fixtures = fileURLToPath(new URL('../fixtures/ship/', import.meta.url));

/** The project every ship test scaffolds: init names it after its directory. */
export const project = {
  name: 'demo-volume-operator',
  namespace: 'demo-volume-operator-system',
  serviceAccount: 'demo-volume-operator-controller-manager',
  crd: 'demovolumes.storage.civo.com',
  label: 'app.kubernetes.io/name=demo-volume-operator',
} as const;

/** A fresh `<tmp>/demo-volume-operator`; returns it and its parent, to remove when done. */
export async function projectDir(): Promise<{ work: string; dir: string }> {
  const work = await mkdtemp(join(tmpdir(), 'opgen-ship-'));
  const dir = join(work, project.name);
  await mkdir(dir);
  return { work, dir };
}

/**
 * The Civo tutorial's operator, scaffolded by opgen, with a controller that creates the
 * PersistentVolumeClaims it owns, reports status and records Events (test/fixtures/ship),
 * and `opgen manifests` run: config/ holds its CRD and the role its markers ask for.
 * `initArgs` go to `opgen init` (e.g. the npm specs of the runtime and CLI).
 */
export async function scaffoldOperator(dir: string, initArgs: readonly string[] = ['--skip-install']): Promise<void> {
  await opgenOk(dir, 'init', '--domain', 'civo.com', ...initArgs);
  await opgenOk(dir, 'create', 'api', '--group', 'storage', '--version', 'v1', '--kind', 'DemoVolume');
  await copyFile(join(fixtures, 'demovolume_types.ts'), join(dir, 'src/api/v1/demovolume_types.ts'));
  await copyFile(join(fixtures, 'demovolume_controller.ts'), join(dir, 'src/controllers/demovolume_controller.ts'));
  await rm(join(dir, 'src/controllers/demovolume_controller.test.ts'));
  // The new types outgrow the sample create api wrote: manifests writes one that fits them.
  await rm(join(dir, 'config/samples/storage_v1_demovolume.yaml'));
  await opgenOk(dir, 'manifests');
}

/**
 * Links the project's dependencies to this checkout's builds (the runtime's dist/ and the
 * dev tools), so it compiles and runs without an npm install: the packaging itself is
 * what test/scaffold/build.test.ts and dockerfile.test.ts install for real.
 */
export async function linkDependencies(dir: string): Promise<void> {
  if (!existsSync(join(repo, 'runtime/dist/index.js'))) throw new Error('runtime/dist is missing: run npm run build first');
  await mkdir(join(dir, 'node_modules/@opgen'), { recursive: true });
  await mkdir(join(dir, 'node_modules/@types'), { recursive: true });
  await symlink(join(repo, 'runtime'), join(dir, 'node_modules/@opgen/runtime'), 'dir');
  await symlink(join(repo, 'node_modules/@types/node'), join(dir, 'node_modules/@types/node'), 'dir');
}

/**
 * Puts this checkout's CLI where `npm install` puts the project's opgen dev dependency
 * (node_modules/.bin/opgen), so the npm scripts that run `opgen deploy` and the like run it.
 */
export async function linkCli(dir: string): Promise<void> {
  if (!existsSync(join(repo, 'dist/cli.js'))) throw new Error('dist is missing: run npm run build first');
  await mkdir(join(dir, 'node_modules/.bin'), { recursive: true });
  await symlink(join(repo, 'bin/opgen.js'), join(dir, 'node_modules/.bin/opgen'));
}

/** `tsc -p tsconfig.build.json` (what `npm run build` runs) with this checkout's TypeScript. */
export async function compile(dir: string): Promise<void> {
  const tsc = await execa('node', [join(repo, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], {
    cwd: dir,
    all: true,
    reject: false,
  });
  expect(tsc.exitCode, tsc.all).toBe(0);
}

/** The kubectl built with the control plane: the one on PATH may be older than the API server. */
export async function kubectlBinary(): Promise<string> {
  return (await resolveBinaries({ kubectl: true })).kubectl!;
}

/**
 * `npm run <script> -- <args>` in the project, as a user runs it, with `env` only (plus
 * PATH and a HOME of its own, so no kubeconfig of this machine's leaks in); killed after
 * `timeoutMs` when given.
 */
export async function npmRun(
  dir: string,
  script: string,
  args: readonly string[],
  env: Record<string, string>,
  timeoutMs?: number,
): Promise<ScriptResult> {
  const home = join(dir, '..', 'home');
  await mkdir(home, { recursive: true });
  // In a process group of its own: a timeout ends kubectl too, which would hold the output open.
  const subprocess = execa('npm', ['run', '--silent', script, '--', ...args], {
    cwd: dir,
    reject: false,
    all: true,
    detached: true,
    extendEnv: false,
    env: { PATH: process.env.PATH ?? '', HOME: home, NO_COLOR: '1', ...env },
  });
  const timer = timeoutMs ? setTimeout(() => process.kill(-subprocess.pid!, 'SIGKILL'), timeoutMs) : undefined;
  const result = await subprocess;
  clearTimeout(timer);
  return { exitCode: result.exitCode, stdout: result.stdout, stderr: result.stderr, all: result.all };
}

/** What an npm script did: its exit code and output (final newlines stripped). */
export interface ScriptResult {
  exitCode: number | undefined;
  stdout: string;
  stderr: string;
  /** stdout and stderr interleaved. */
  all: string;
}

/**
 * Runs `kubectl` with a kubeconfig; resolves with its result, never rejects. `.apply(object)`
 * applies one object server-side.
 */
export function kubectlWith(kubectl: string, kubeconfig: string) {
  const run = (...args: string[]) => execa(kubectl, [`--kubeconfig=${kubeconfig}`, ...args], { reject: false, all: true });
  const apply = (object: object) =>
    execa(kubectl, [`--kubeconfig=${kubeconfig}`, 'apply', '--server-side', '-f', '-'], { input: JSON.stringify(object), reject: false, all: true });
  return Object.assign(run, { apply });
}

/** Polls `check` every 250 ms until it returns a value other than undefined, or fails after `timeoutMs`. */
export async function waitFor<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** A GET over HTTPS that accepts the self-signed certificate the manager makes. */
export function httpsGet(url: string, token?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'GET', rejectUnauthorized: false, headers: token ? { authorization: `Bearer ${token}` } : {}, timeout: 10_000 },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    req.on('timeout', () => req.destroy(new Error(`GET ${url} timed out`)));
    req.on('error', reject);
    req.end();
  });
}

/** A kubeconfig file for `server` that nobody listens on, or with `token`. */
export async function writeKubeconfig(path: string, server: string, token = 'no-such-token'): Promise<void> {
  const config = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'cluster', cluster: { server, 'insecure-skip-tls-verify': true } }],
    users: [{ name: 'user', user: { token } }],
    contexts: [{ name: 'context', context: { cluster: 'cluster', user: 'user' } }],
    'current-context': 'context',
  };
  await writeFile(path, JSON.stringify(config), { mode: 0o600 });
}

/** The text of a project file. */
export function projectFile(dir: string, path: string): Promise<string> {
  return readFile(join(dir, path), 'utf8');
}
