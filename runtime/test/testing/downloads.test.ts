import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  envtestArchiveName,
  envtestArchivePath,
  extractFiles,
  helmArchivePath,
  helmArchiveUrl,
  hostPlatform,
  kubernetesBinaryUrl,
  progressReporter,
  releaseSources,
  setupEnvtestDir,
} from '../../src/downloads/index.js';
import { withLock } from '../../src/downloads/lock.js';

describe('release URLs', () => {
  const platforms = [
    ['linux', 'x64', 'linux', 'amd64'],
    ['linux', 'arm64', 'linux', 'arm64'],
    ['darwin', 'x64', 'darwin', 'amd64'],
    ['darwin', 'arm64', 'darwin', 'arm64'],
  ] as const;

  it.each(platforms)('names Node %s/%s as upstream names %s/%s', (nodeOs, nodeArch, os, arch) => {
    const platform = hostPlatform(nodeOs, nodeArch);
    expect(platform).toEqual({ os, arch });
    const sources = releaseSources({});
    // controller-tools' envtest-releases.yaml keys and setup-envtest's default index.
    expect(sources.envtestIndex).toBe('https://raw.githubusercontent.com/kubernetes-sigs/controller-tools/HEAD/envtest-releases.yaml');
    expect(envtestArchiveName('1.36.3', platform)).toBe(`envtest-v1.36.3-${os}-${arch}.tar.gz`);
    expect(envtestArchivePath('kube-apiserver')).toBe('controller-tools/envtest/kube-apiserver');
    // dl.k8s.io's layout; the digest is the same URL plus .sha256.
    expect(kubernetesBinaryUrl(sources.kubernetesReleases, '1.36.3', platform, 'kube-controller-manager')).toBe(
      `https://dl.k8s.io/release/v1.36.3/bin/${os}/${arch}/kube-controller-manager`,
    );
    expect(kubernetesBinaryUrl(sources.kubernetesReleases, '1.36.3', platform, 'kubectl')).toBe(`https://dl.k8s.io/release/v1.36.3/bin/${os}/${arch}/kubectl`);
    // get.helm.sh's tarballs hold <os>-<arch>/helm; the digest is the URL plus .sha256sum.
    expect(helmArchiveUrl(sources.helmReleases, '4.3.1', platform)).toBe(`https://get.helm.sh/helm-v4.3.1-${os}-${arch}.tar.gz`);
    expect(helmArchivePath(platform)).toBe(`${os}-${arch}/helm`);
  });

  it('takes mirrors from the environment, with or without a trailing slash', () => {
    const sources = releaseSources({ OPGEN_ENVTEST_INDEX: 'https://m/i.yaml', OPGEN_K8S_RELEASE_URL: 'https://m/k8s/', OPGEN_HELM_RELEASE_URL: 'https://m/helm/' });
    expect(sources).toEqual({ envtestIndex: 'https://m/i.yaml', kubernetesReleases: 'https://m/k8s', helmReleases: 'https://m/helm' });
    expect(kubernetesBinaryUrl(sources.kubernetesReleases, '1.36.3', { os: 'linux', arch: 'amd64' }, 'kubectl')).toBe('https://m/k8s/v1.36.3/bin/linux/amd64/kubectl');
  });

  it("shares setup-envtest's store: ~/.local/share/kubebuilder-envtest on Linux, io.kubebuilder.envtest on macOS", () => {
    expect(setupEnvtestDir('1.36.3', { os: 'linux', arch: 'amd64' }, { HOME: '/h' })).toBe('/h/.local/share/kubebuilder-envtest/k8s/1.36.3-linux-amd64');
    expect(setupEnvtestDir('1.36.3', { os: 'linux', arch: 'arm64' }, { HOME: '/h', XDG_DATA_HOME: '/d' })).toBe('/d/kubebuilder-envtest/k8s/1.36.3-linux-arm64');
    expect(setupEnvtestDir('1.36.3', { os: 'darwin', arch: 'arm64' }, { HOME: '/h' })).toBe(
      '/h/Library/Application Support/io.kubebuilder.envtest/k8s/1.36.3-darwin-arm64',
    );
  });
});

describe('tar extraction', () => {
  let scratch: string;
  beforeEach(() => {
    scratch = mkdtempSync(join(tmpdir(), 'opgen-tar-'));
  });
  afterEach(() => rmSync(scratch, { recursive: true, force: true }));

  // GNU tar writes GNU long names (L entries), pax writers (Go's archive/tar) pax `path` records.
  it.each(['gnu', 'pax', 'ustar'])('reads the files it is asked for from a %s archive, executable, and skips the rest', async (format) => {
    const long = `controller-tools/${'deep/'.repeat(format === 'ustar' ? 10 : 25)}envtest`;
    mkdirSync(join(scratch, 'in', long), { recursive: true });
    const etcd = Buffer.alloc(70_001, 7);
    writeFileSync(join(scratch, 'in', long, 'etcd'), etcd);
    writeFileSync(join(scratch, 'in', long, 'other'), 'x'.repeat(1_000));
    writeFileSync(join(scratch, 'in', long, 'kubectl'), 'kubectl bytes');
    execFileSync('tar', [`--format=${format}`, '-czf', join(scratch, 'a.tar.gz'), '-C', join(scratch, 'in'), 'controller-tools']);

    const wanted = new Map([
      [`${long}/etcd`, join(scratch, 'etcd')],
      [`${long}/kubectl`, join(scratch, 'kubectl')],
      [`${long}/absent`, join(scratch, 'absent')],
    ]);
    const found = await extractFiles(join(scratch, 'a.tar.gz'), wanted);

    expect([...found].sort()).toEqual([`${long}/etcd`, `${long}/kubectl`]);
    expect(readFileSync(join(scratch, 'etcd')).equals(etcd)).toBe(true);
    expect(readFileSync(join(scratch, 'kubectl'), 'utf8')).toBe('kubectl bytes');
    expect(() => execFileSync('test', ['-x', join(scratch, 'etcd')])).not.toThrow();
  });

  it('refuses an archive that ends inside a wanted file', async () => {
    mkdirSync(join(scratch, 'in/controller-tools/envtest'), { recursive: true });
    writeFileSync(join(scratch, 'in/controller-tools/envtest/etcd'), Buffer.alloc(200_000, 1));
    execFileSync('tar', ['-cf', join(scratch, 'a.tar'), '-C', join(scratch, 'in'), 'controller-tools']);
    const whole = readFileSync(join(scratch, 'a.tar'));
    writeFileSync(join(scratch, 'cut.tar.gz'), execFileSync('gzip', ['-c'], { input: whole.subarray(0, 100_000) }));
    await expect(extractFiles(join(scratch, 'cut.tar.gz'), new Map([['controller-tools/envtest/etcd', join(scratch, 'etcd')]]))).rejects.toThrow(
      'the archive ends inside controller-tools/envtest/etcd',
    );
  });
});

describe('download progress', () => {
  it('draws a bar in place on a terminal and clears it at the end', () => {
    const written: string[] = [];
    let now = 0;
    const progress = progressReporter('etcd', 10_000_000, { write: (text: string) => written.push(text), isTTY: true, columns: 200 }, () => now);
    now = 2_000;
    progress.advance(5_000_000);
    progress.end();
    expect(written).toEqual(['\rdownload: etcd [############------------] 5.0 MB of 10.0 MB (50%), 2.5 MB/s\x1b[K', '\r\x1b[K']);
  });

  it('writes a line every five seconds when stderr is no terminal (CI logs, piped test output)', () => {
    const written: string[] = [];
    let now = 0;
    const progress = progressReporter('envtest-v1.36.3-linux-amd64.tar.gz', undefined, { write: (text: string) => written.push(text) }, () => now);
    now = 1_000;
    progress.advance(1_000_000);
    now = 5_000;
    progress.advance(1_000_000);
    now = 9_000;
    progress.advance(1_000_000);
    progress.end();
    expect(written).toEqual(['download: envtest-v1.36.3-linux-amd64.tar.gz: 2.0 MB, 400.0 kB/s\n']);
  });
});

describe('download lock', () => {
  let scratch: string;
  beforeEach(() => {
    scratch = mkdtempSync(join(tmpdir(), 'opgen-lock-'));
  });
  afterEach(() => rmSync(scratch, { recursive: true, force: true }));

  it('runs one holder at a time, and tells the waiter who holds it', async () => {
    const lock = join(scratch, 'dir.lock');
    const order: string[] = [];
    let waited = '';
    let release!: () => void;
    const first = withLock(lock, async () => {
      order.push('first in');
      await new Promise<void>((resolve) => (release = resolve));
      order.push('first out');
    });
    await vi.waitFor(() => expect(order).toEqual(['first in']));
    const second = withLock(lock, async () => void order.push('second'), (owner) => (waited = owner));
    await vi.waitFor(() => expect(waited).toBe(`${hostname()} ${process.pid}`));
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(['first in', 'first out', 'second']);
    expect(existsSync(lock)).toBe(false);
  });

  it('takes over a lock whose holder on this host has died', async () => {
    const lock = join(scratch, 'dir.lock');
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    mkdirSync(lock);
    writeFileSync(join(lock, 'owner'), `${hostname()} ${dead}`);
    await expect(withLock(lock, async () => 'ran')).resolves.toBe('ran');
  });
});
