import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostPlatform } from '@opgen/runtime/downloads';
import { freePort, KUBERNETES_VERSION } from '@opgen/runtime/testing';
import { startReleaseMirror, type ReleaseMirror } from '../../runtime/test/testing/release-mirror.js';
import { projectDir, scaffoldOperator } from '../ship/support.js';

// `opgen setup-envtest` and the kubectl `opgen install`/`deploy` download when none is on the
// PATH, run as a user runs them (the built CLI, in a process of its own) against a faithful
// release mirror on loopback, each with a cache of its own.
const bin = fileURLToPath(new URL('../../bin/opgen.js', import.meta.url));
const built = process.env.KUBEBUILDER_ASSETS || join(homedir(), '.cache/opgen/controlplane', KUBERNETES_VERSION);

let work: string;
let mirror: ReleaseMirror;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'opgen-setup-envtest-'));
  mkdirSync(join(work, 'mirror'));
  mirror = await startReleaseMirror({ version: KUBERNETES_VERSION, ...hostPlatform(), controlPlane: built, work: join(work, 'mirror') });
}, 300_000);

afterAll(async () => {
  await mirror?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

function opgen(cwd: string, env: NodeJS.ProcessEnv, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { cwd, env, encoding: 'utf8' }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** No PATH at all (so no kubectl, no Go), a cache of its own, the mirror's variables. */
function user(name: string): NodeJS.ProcessEnv {
  return { ...mirror.env, PATH: '', HOME: join(work, name), OPGEN_CACHE_DIR: join(work, name, 'cache'), NO_COLOR: '1' };
}

describe('opgen setup-envtest', () => {
  it('downloads etcd, kube-apiserver and kubectl, verified, and prints the directory for KUBEBUILDER_ASSETS; a second run downloads nothing', async () => {
    const env = user('print-path');
    const assets = join(env.OPGEN_CACHE_DIR as string, 'controlplane', KUBERNETES_VERSION);
    const first = await opgen(work, env, 'setup-envtest', '--print-path');
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toBe(`${assets}\n`);
    expect(first.stderr).toContain(`setup-envtest: downloading etcd, kube-apiserver, kubectl v${KUBERNETES_VERSION} into ${assets}\n`);
    expect(first.stderr).toMatch(/sha512 verified\n/);
    expect(readdirSync(assets).sort()).toEqual(['etcd', 'kube-apiserver', 'kubectl']);

    const served = mirror.requests.get(mirror.envtestArchive.urlPath);
    const again = await opgen(work, env, 'setup-envtest');
    expect(again).toEqual({ code: 0, stdout: `etcd, kube-apiserver, kubectl v${KUBERNETES_VERSION} already in ${assets}\n`, stderr: '' });
    expect(mirror.requests.get(mirror.envtestArchive.urlPath)).toBe(served);
  });

  it('adds kube-controller-manager from the Kubernetes release when asked', async () => {
    const env = user('controller-manager');
    const result = await opgen(work, env, 'setup-envtest', '--controller-manager');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/download: kube-controller-manager: [\d.]+ MB in [\d.]+ s, sha256 verified\n/);
    expect(readdirSync(join(env.OPGEN_CACHE_DIR as string, 'controlplane', KUBERNETES_VERSION)).sort()).toEqual([
      'etcd',
      'kube-apiserver',
      'kube-controller-manager',
      'kubectl',
    ]);
  });

  it('offline, fails in one line naming the URL and the way out', async () => {
    const env = user('offline');
    const port = await freePort();
    env.OPGEN_ENVTEST_INDEX = `http://127.0.0.1:${port}/envtest-releases.yaml`;
    const result = await opgen(work, env, 'setup-envtest');
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    // What it set out to do, then the error, one line each.
    expect(result.stderr).toBe(
      `setup-envtest: downloading etcd, kube-apiserver, kubectl v${KUBERNETES_VERSION} into ${join(env.OPGEN_CACHE_DIR as string, 'controlplane', KUBERNETES_VERSION)}\n` +
        `error: cannot download http://127.0.0.1:${port}/envtest-releases.yaml: connect ECONNREFUSED 127.0.0.1:${port} (3 attempts) ` +
        '(point OPGEN_ENVTEST_INDEX (and OPGEN_K8S_RELEASE_URL) at a mirror you can reach, or run `npm test` with Go installed to build them)\n',
    );
  });

  it('refuses a version that is no Kubernetes release number, downloading nothing', async () => {
    const env = user('bad-version');
    const result = await opgen(work, env, 'setup-envtest', '--version', '1.36');
    expect(result).toEqual({ code: 1, stdout: '', stderr: `error: --version 1.36: give a Kubernetes release as major.minor.patch, e.g. ${KUBERNETES_VERSION}\n` });
  });
});

describe('opgen install without kubectl on the PATH', () => {
  it('downloads kubectl once, verified, and builds config/crd with it', async () => {
    const { work: projectWork, dir } = await projectDir();
    try {
      await scaffoldOperator(dir);
      const env = user('install');
      const result = await opgen(dir, env, 'install', '--dry-run');
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain('kind: CustomResourceDefinition');
      expect(result.stderr).toMatch(/download: kubectl: [\d.]+ MB in [\d.]+ s, sha256 verified\n/);
      expect(readdirSync(join(env.OPGEN_CACHE_DIR as string, 'controlplane', KUBERNETES_VERSION))).toEqual(['kubectl']);
      const again = await opgen(dir, env, 'install', '--dry-run');
      expect(again.stderr).toBe('');
    } finally {
      rmSync(projectWork, { recursive: true, force: true });
    }
  });
});
