import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { binariesCacheDir, freePort, KUBERNETES_VERSION, resolveBinaries } from '../../src/testing/index.js';

// The script ships in the package (package.json `files`), so installed projects can build.
const controlplaneDir = fileURLToPath(new URL('../../controlplane/', import.meta.url));
const buildScript = join(controlplaneDir, 'build.sh');
const versions = Object.fromEntries(
  [...readFileSync(join(controlplaneDir, 'versions.env'), 'utf8').matchAll(/^(\w+)=(.*)$/gm)].map((m) => [m[1], m[2]]),
);

describe('control plane binaries', () => {
  let scratch: string;
  beforeEach(() => {
    scratch = mkdtempSync(join(tmpdir(), 'opgen-binaries-'));
  });
  afterEach(() => rmSync(scratch, { recursive: true, force: true }));

  it('pins the Kubernetes version the build script builds', () => {
    expect(versions.KUBERNETES_VERSION).toBe(KUBERNETES_VERSION);
  });

  it('looks in the directory the build script fills', () => {
    const printed = execFileSync('bash', [buildScript, '--print'], { encoding: 'utf8' }).trim();
    expect(binariesCacheDir()).toBe(printed);
    expect(binariesCacheDir({ OPGEN_CACHE_DIR: '/c' })).toBe(`/c/controlplane/${KUBERNETES_VERSION}`);
    expect(binariesCacheDir({ XDG_CACHE_HOME: '/x' })).toBe(`/x/opgen/controlplane/${KUBERNETES_VERSION}`);
  });

  it('resolves binaries that report the pinned versions', async () => {
    const binaries = await resolveBinaries({ controllerManager: true, kubectl: true });
    const version = (binary: string) => execFileSync(binary, ['--version'], { encoding: 'utf8' });
    expect(version(binaries.kubeApiServer).trim()).toBe(`Kubernetes v${KUBERNETES_VERSION}`);
    expect(version(binaries.kubeControllerManager as string).trim()).toBe(`Kubernetes v${KUBERNETES_VERSION}`);
    expect(version(binaries.etcd)).toContain(`etcd Version: ${versions.ETCD_VERSION}`);
    const kubectl = execFileSync(binaries.kubectl as string, ['version', '--client', '-o', 'json'], { encoding: 'utf8' });
    expect(JSON.parse(kubectl).clientVersion.gitVersion).toBe(`v${KUBERNETES_VERSION}`);
  });

  it('prefers KUBEBUILDER_ASSETS and takes what it lacks from the cache', async () => {
    const cached = await resolveBinaries({ controllerManager: true });
    // What setup-envtest provides: etcd, kube-apiserver, kubectl; no controller manager.
    const assets = join(scratch, 'envtest');
    mkdirSync(assets);
    symlinkSync(cached.etcd, join(assets, 'etcd'));
    symlinkSync(cached.kubeApiServer, join(assets, 'kube-apiserver'));

    const resolved = await resolveBinaries({ controllerManager: true, env: { ...process.env, KUBEBUILDER_ASSETS: assets } });

    expect(resolved).toEqual({
      etcd: join(assets, 'etcd'),
      kubeApiServer: join(assets, 'kube-apiserver'),
      kubeControllerManager: cached.kubeControllerManager,
    });
  });

  it('builds missing binaries with the shipped script when no download can be had and Go is there, saying so as it goes', async () => {
    // A Go whose builds fail at once: what matters is what the user sees before and after.
    const bin = join(scratch, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'go'), '#!/bin/sh\n[ "$1" = version ] && { echo "go version go1.26 linux/amd64"; exit 0; }\necho "go: build failed" >&2\nexit 1\n', { mode: 0o755 });
    // Offline: the index's port on loopback has no server.
    const index = `http://127.0.0.1:${await freePort()}/envtest-releases.yaml`;
    const env = { PATH: `${bin}:${process.env.PATH}`, OPGEN_CACHE_DIR: join(scratch, 'cache'), OPGEN_ENVTEST_INDEX: index, HOME: scratch };
    const runtimeDist = fileURLToPath(new URL('../../dist/testing/index.js', import.meta.url));
    const run = spawnSync(
      process.execPath,
      ['--input-type=module', '-e', `await (await import(${JSON.stringify(runtimeDist)})).resolveBinaries({ env: ${JSON.stringify(env)} })`],
      { encoding: 'utf8' },
    );
    const cache = join(scratch, 'cache', 'controlplane', KUBERNETES_VERSION);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`controlplane: downloading etcd, kube-apiserver v${KUBERNETES_VERSION} into ${cache} (once per Kubernetes version)\n`);
    const port = new URL(index).port;
    expect(run.stderr).toContain(
      `controlplane: cannot download ${index}: connect ECONNREFUSED 127.0.0.1:${port} (3 attempts); ` +
        `building etcd, kube-apiserver with Go into ${cache} (once per Kubernetes version; a cold build takes many minutes)\n`,
    );
    expect(run.stderr).toContain(`controlplane: building etcd v${versions.ETCD_VERSION}\n`);
    expect(run.stderr).toContain('go: build failed\n');
    expect(run.stderr).toContain(`${buildScript} failed (exit 1); see its output above`);
  });

  it('says how to get binaries when none are found, none can be downloaded and Go is absent', async () => {
    const port = await freePort();
    const env = { KUBEBUILDER_ASSETS: scratch, OPGEN_CACHE_DIR: join(scratch, 'cache'), PATH: '', HOME: scratch, OPGEN_ENVTEST_INDEX: `http://127.0.0.1:${port}/i.yaml` };
    const failure = resolveBinaries({ controllerManager: true, env });
    await expect(failure).rejects.toThrow(
      `control plane binaries not found: etcd, kube-apiserver, kube-controller-manager; cannot download http://127.0.0.1:${port}/i.yaml: connect ECONNREFUSED 127.0.0.1:${port} (3 attempts). ` +
        `Either set KUBEBUILDER_ASSETS to a directory holding them (\`setup-envtest use ${KUBERNETES_VERSION} -p path\`), ` +
        `or install Go (go.dev/doc/install) so the next run builds them (or run \`bash ${buildScript}\`), ` +
        `or point OPGEN_ENVTEST_INDEX at a mirror of http://127.0.0.1:${port}/i.yaml and OPGEN_K8S_RELEASE_URL at a mirror of https://dl.k8s.io/release`,
    );
  });
});
