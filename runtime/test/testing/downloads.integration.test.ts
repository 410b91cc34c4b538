import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { downloadFile, ensureHelm, ensureKubectl, HELM_VERSION, hostPlatform } from '../../src/downloads/index.js';
import { freePort, KUBERNETES_VERSION, resolveBinaries } from '../../src/testing/index.js';
import { startReleaseMirror, type ReleaseMirror } from './release-mirror.js';

// A user with Node and nothing else: Go hidden from PATH, an empty cache of their own, and the
// release hosts served by a faithful mirror on loopback (this machine reaches none of them).
// The mirror's tarballs are packed from the locally built binaries of the shared cache,
// which this file only reads.
const built = process.env.KUBEBUILDER_ASSETS || join(homedir(), '.cache/opgen/controlplane', KUBERNETES_VERSION);
const builtHelm = join(homedir(), '.cache/opgen/tools', `helm-${HELM_VERSION}`, 'helm');
const runtimeDist = fileURLToPath(new URL('../../dist/testing/index.js', import.meta.url));
const { os, arch } = hostPlatform();

const pathWithoutGo = (process.env.PATH ?? '')
  .split(delimiter)
  .filter((dir) => dir && !existsSync(join(dir, 'go')))
  .join(delimiter);

let work: string;
let mirror: ReleaseMirror;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'opgen-downloads-'));
  mkdirSync(join(work, 'mirror'));
  mirror = await startReleaseMirror({
    version: KUBERNETES_VERSION,
    os,
    arch,
    controlPlane: built,
    work: join(work, 'mirror'),
  });
}, 300_000);

afterAll(async () => {
  await mirror?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** A fresh user: an empty cache and home, no Go, no KUBEBUILDER_ASSETS, the mirror's variables. */
function freshUser(name: string): NodeJS.ProcessEnv {
  const home = join(work, name);
  mkdirSync(home, { recursive: true });
  const env: NodeJS.ProcessEnv = { ...process.env, ...mirror.env, PATH: pathWithoutGo, HOME: home, OPGEN_CACHE_DIR: join(home, 'cache') };
  delete env.KUBEBUILDER_ASSETS;
  delete env.XDG_DATA_HOME;
  return env;
}

function cacheOf(env: NodeJS.ProcessEnv): string {
  return join(env.OPGEN_CACHE_DIR as string, 'controlplane', KUBERNETES_VERSION);
}

/** Runs `code` in a new Node process with the runtime's build as `testing`; its exit code and output. */
function node(env: NodeJS.ProcessEnv, code: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const script = `const testing = await import(${JSON.stringify(runtimeDist)});\n${code}`;
  return new Promise((resolve) => {
    execFile(process.execPath, ['--input-type=module', '-e', script], { env, encoding: 'utf8', maxBuffer: 16 << 20 }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const archiveName = `envtest-v${KUBERNETES_VERSION}-${os}-${arch}.tar.gz`;

describe('control plane downloads from a release mirror', () => {
  it(
    'downloads, verifies and starts a control plane with garbage collection, with no Go on the PATH',
    async () => {
      const env = freshUser('starts');
      const run = await node(
        env,
        `const cp = await testing.startControlPlane({ controllerManager: true });
         try {
           const kubectl = testing.kubectlFor(cp);
           const { stdout } = await kubectl.run(['get', 'namespace', 'default', '-o', 'jsonpath={.status.phase}']);
           console.log('phase', stdout);
         } finally { await cp.stop(); }`,
      );
      expect(run.stderr, run.stderr).toContain(
        `controlplane: downloading etcd, kube-apiserver, kube-controller-manager, kubectl v${KUBERNETES_VERSION} into ${cacheOf(env)}`,
      );
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain('phase Active');
      expect(run.stderr).toMatch(new RegExp(`download: ${archiveName.replace(/\./g, '\\.')}: [\\d.]+ MB in [\\d.]+ s, sha512 verified\\n`));
      expect(run.stderr).toMatch(/download: kube-controller-manager: [\d.]+ MB in [\d.]+ s, sha256 verified\n/);
      // The four binaries, nothing half-written beside them, the lock released.
      expect(readdirSync(cacheOf(env)).sort()).toEqual(['etcd', 'kube-apiserver', 'kube-controller-manager', 'kubectl']);
      expect(existsSync(`${cacheOf(env)}.lock`)).toBe(false);

      // The next run finds them in the cache and downloads nothing.
      const before = mirror.requests.get(mirror.envtestArchive.urlPath);
      await resolveBinaries({ controllerManager: true, kubectl: true, env });
      expect(mirror.requests.get(mirror.envtestArchive.urlPath)).toBe(before);
    },
    300_000,
  );

  it('refuses a corrupted tarball, deletes it, names the URL and both digests, and builds nothing in its place', async () => {
    const env = freshUser('corrupt');
    // A Go that would build if asked: a checksum mismatch must stop, not fall back.
    const bin = join(work, 'corrupt', 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'go'), '#!/bin/sh\necho "go version go1.26 linux/amd64"\n', { mode: 0o755 });
    env.PATH = `${bin}${delimiter}${pathWithoutGo}`;
    mirror.corrupt(mirror.envtestArchive.urlPath);
    try {
      const failure = await resolveBinaries({ env }).then(
        () => undefined,
        (error: Error) => error,
      );
      expect(failure?.message).toMatch(
        new RegExp(
          `^checksum mismatch for ${mirror.url}${mirror.envtestArchive.urlPath.replace(/\./g, '\\.')}: expected sha512 ${mirror.envtestArchive.sha512}, got [0-9a-f]{128}; the download was deleted$`,
        ),
      );
      expect(readdirSync(cacheOf(env))).toEqual([]);
    } finally {
      mirror.uncorrupt(mirror.envtestArchive.urlPath);
    }
  });

  it('retries a download the server drops halfway, and caches only the whole file', async () => {
    const env = freshUser('truncated-once');
    const before = mirror.requests.get(mirror.envtestArchive.urlPath) ?? 0;
    mirror.truncate(mirror.envtestArchive.urlPath, 1);
    const run = await node(env, `await testing.resolveBinaries();`);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(new RegExp(`download: ${archiveName.replace(/\./g, '\\.')}: the connection (closed|broke) after [\\d.]+ MB of [\\d.]+ MB.*; trying again \\(2 of 3\\)\\n`));
    expect(mirror.requests.get(mirror.envtestArchive.urlPath)).toBe(before + 2);
    expect(readdirSync(cacheOf(env)).sort()).toEqual(['etcd', 'kube-apiserver', 'kubectl']);
  });

  it('refuses a download that breaks on every attempt and caches nothing', async () => {
    const env = freshUser('truncated-always');
    mirror.truncate(mirror.envtestArchive.urlPath, 3);
    const run = await node(env, `await testing.resolveBinaries();`);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`cannot download ${mirror.url}${mirror.envtestArchive.urlPath}: the connection`);
    expect(run.stderr).toContain('(3 attempts)');
    expect(readdirSync(cacheOf(env))).toEqual([]);
  });

  it('gives up on a connection that stops sending, tries again, and keeps only the whole file', async () => {
    const env = freshUser('frozen');
    const archive = join(cacheOf(env), archiveName);
    mkdirSync(cacheOf(env), { recursive: true });
    const before = mirror.requests.get(mirror.envtestArchive.urlPath) ?? 0;
    const lines: string[] = [];
    mirror.freeze(mirror.envtestArchive.urlPath, 1);
    const url = `${mirror.url}${mirror.envtestArchive.urlPath}`;
    const checksum = { algorithm: 'sha512' as const, hex: mirror.envtestArchive.sha512 };
    await downloadFile(url, archive, { checksum, idleTimeoutMs: 2_000, progress: { write: (text: string) => lines.push(text) } });
    expect(lines.join('')).toMatch(/the connection broke after [\d.]+ MB of [\d.]+ MB \(no data for 2 s\); trying again \(2 of 3\)\n/);
    expect(mirror.requests.get(mirror.envtestArchive.urlPath)).toBe(before + 2);
    expect(readdirSync(cacheOf(env))).toEqual([archiveName]);

    // Frozen on every attempt: refused, nothing kept.
    rmSync(archive);
    mirror.freeze(mirror.envtestArchive.urlPath, 2);
    await expect(downloadFile(url, archive, { checksum, idleTimeoutMs: 2_000, attempts: 2, progress: { write: () => true } })).rejects.toThrow(
      new RegExp(`^cannot download ${url.replace(/\./g, '\\.')}: the connection broke after [\\d.]+ MB of [\\d.]+ MB \\(no data for 2 s\\) \\(2 attempts\\)$`),
    );
    expect(readdirSync(cacheOf(env))).toEqual([]);
  });

  it('downloads once when two test runs start on an empty cache together', async () => {
    const env = freshUser('concurrent');
    const before = mirror.requests.get(mirror.envtestArchive.urlPath) ?? 0;
    const [first, second] = await Promise.all([node(env, 'await testing.resolveBinaries();'), node(env, 'await testing.resolveBinaries();')]);
    expect(first.code, first.stderr).toBe(0);
    expect(second.code, second.stderr).toBe(0);
    expect(mirror.requests.get(mirror.envtestArchive.urlPath)).toBe(before + 1);
    expect(`${first.stderr}${second.stderr}`).toContain(`download: waiting for another download into ${cacheOf(env)}`);
    expect(readdirSync(cacheOf(env)).sort()).toEqual(['etcd', 'kube-apiserver', 'kubectl']);
  });

  it('with no network and no Go says in one line which URL failed and the three ways out', async () => {
    const env = freshUser('offline');
    const port = await freePort();
    env.OPGEN_ENVTEST_INDEX = `http://127.0.0.1:${port}/envtest-releases.yaml`;
    const run = await node(env, `await testing.resolveBinaries({ controllerManager: true });`);
    expect(run.code).toBe(1);
    const message = /Error: (control plane binaries not found.*)/.exec(run.stderr)?.[1];
    expect(message).toBe(
      `control plane binaries not found: etcd, kube-apiserver, kube-controller-manager; cannot download http://127.0.0.1:${port}/envtest-releases.yaml: ` +
        `connect ECONNREFUSED 127.0.0.1:${port} (3 attempts). Either set KUBEBUILDER_ASSETS to a directory holding them ` +
        `(\`setup-envtest use ${KUBERNETES_VERSION} -p path\`), or install Go (go.dev/doc/install) so the next run builds them ` +
        `(or run \`bash ${fileURLToPath(new URL('../../controlplane/build.sh', import.meta.url))}\`), or point OPGEN_ENVTEST_INDEX at a mirror of ` +
        `http://127.0.0.1:${port}/envtest-releases.yaml and OPGEN_K8S_RELEASE_URL at a mirror of ${mirror.url}/release`,
    );
  });
});

describe('tools opgen runs, downloaded when not on the PATH', () => {
  it('kubectl comes from the Kubernetes release layout, sha256 verified, into the control plane cache', async () => {
    const env: NodeJS.ProcessEnv = { ...freshUser('kubectl'), PATH: '' };
    const kubectl = await ensureKubectl({ env, progress: { write: () => true } });
    expect(kubectl).toBe(join(cacheOf(env), 'kubectl'));
    const version = await new Promise<string>((resolve, reject) =>
      execFile(kubectl, ['version', '--client', '-o', 'json'], (error, stdout) => (error ? reject(error) : resolve(stdout))),
    );
    expect(JSON.parse(version).clientVersion.gitVersion).toBe(`v${KUBERNETES_VERSION}`);
  });

  it("helm comes from helm's release tarball, sha256 verified, into opgen's tools cache", async () => {
    // helm's tarball is packed from the helm hack/helm/build.sh builds (the suite's global setup waits for it).
    const helmMirror = await startReleaseMirror({ version: KUBERNETES_VERSION, os, arch, controlPlane: built, helm: { binary: builtHelm, version: HELM_VERSION }, work: join(work, 'mirror') });
    onTestFinished(() => helmMirror.stop());
    const env: NodeJS.ProcessEnv = { ...freshUser('helm'), ...helmMirror.env, PATH: '' };
    const helm = await ensureHelm({ env, progress: { write: () => true } });
    expect(helm).toBe(join(env.OPGEN_CACHE_DIR as string, 'tools', `helm-${HELM_VERSION}`, 'helm'));
    const version = await new Promise<string>((resolve, reject) =>
      execFile(helm, ['version', '--template', '{{.Version}}'], (error, stdout) => (error ? reject(error) : resolve(stdout))),
    );
    expect(version).toBe(`v${HELM_VERSION}`);
    expect(readdirSync(join(env.OPGEN_CACHE_DIR as string, 'tools', `helm-${HELM_VERSION}`))).toEqual(['helm']);
  });
});
