import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, createReadStream, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

/**
 * A faithful stand-in for the release hosts on loopback, for tests that download (this
 * machine reaches none of them):
 * - `/controller-tools/envtest-releases.yaml`: controller-tools' index format, one release;
 * - `/controller-tools/releases/download/envtest-v<v>/envtest-v<v>-<os>-<arch>.tar.gz`: packed
 *   as controller-tools' hack/envtest Dockerfile packs it (GNU `tar -czf` of
 *   `controller-tools/envtest/{etcd,kube-apiserver,kubectl}`);
 * - `/release/v<v>/bin/<os>/<arch>/{kube-controller-manager,kubectl}` with `.sha256` beside;
 * - `/helm/helm-v<v>-<os>-<arch>.tar.gz` with `.sha256sum` (`<hex>  <name>`), holding `<os>-<arch>/helm`.
 * Built from the locally built binaries; faults are switched on per path.
 */
export interface ReleaseMirror {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** OPGEN_ENVTEST_INDEX, OPGEN_K8S_RELEASE_URL and OPGEN_HELM_RELEASE_URL pointing here. */
  env: Record<string, string>;
  envtestArchive: { path: string; urlPath: string; bytes: number; sha512: string };
  /** GET requests served (or refused) per URL path. */
  requests: Map<string, number>;
  /** Serve this path's bytes with one byte flipped. */
  corrupt(urlPath: string): void;
  uncorrupt(urlPath: string): void;
  /** Drop the connection halfway through the next `times` responses for this path. */
  truncate(urlPath: string, times: number): void;
  /** Send half of the next `times` responses for this path, then nothing more, the connection left open. */
  freeze(urlPath: string, times: number): void;
  stop(): Promise<void>;
}

export interface MirrorSources {
  version: string;
  os: string;
  arch: string;
  /** A directory with etcd, kube-apiserver, kube-controller-manager and kubectl. */
  controlPlane: string;
  /** A helm binary, if helm's tarball is to be served. */
  helm?: { binary: string; version: string };
  /** Where to pack; reused when it holds a tarball already (packing takes seconds). */
  work: string;
}

export async function startReleaseMirror(sources: MirrorSources): Promise<ReleaseMirror> {
  const { version, os, arch, work } = sources;
  const files = new Map<string, string>();
  const archiveName = `envtest-v${version}-${os}-${arch}.tar.gz`;
  const archive = join(work, archiveName);
  if (!existsSync(archive)) {
    const stage = join(work, 'stage');
    mkdirSync(join(stage, 'controller-tools/envtest'), { recursive: true });
    for (const name of ['etcd', 'kube-apiserver', 'kubectl']) copyFileSync(join(sources.controlPlane, name), join(stage, 'controller-tools/envtest', name));
    execFileSync('tar', ['-czf', `${archive}.tmp`, '-C', stage, 'controller-tools/envtest']);
    execFileSync('mv', [`${archive}.tmp`, archive]);
  }
  const archiveUrlPath = `/controller-tools/releases/download/envtest-v${version}/${archiveName}`;
  files.set(archiveUrlPath, archive);
  const release = `/release/v${version}/bin/${os}/${arch}`;
  for (const name of ['kube-controller-manager', 'kubectl']) {
    files.set(`${release}/${name}`, join(sources.controlPlane, name));
    const sum = join(work, `${name}.sha256`);
    if (!existsSync(sum)) writeFileSync(sum, digest('sha256', join(sources.controlPlane, name)));
    files.set(`${release}/${name}.sha256`, sum);
  }
  if (sources.helm) {
    const helmName = `helm-v${sources.helm.version}-${os}-${arch}.tar.gz`;
    const helmArchive = join(work, helmName);
    if (!existsSync(helmArchive)) {
      const stage = join(work, 'helm-stage');
      mkdirSync(join(stage, `${os}-${arch}`), { recursive: true });
      copyFileSync(sources.helm.binary, join(stage, `${os}-${arch}`, 'helm'));
      execFileSync('tar', ['-czf', helmArchive, '-C', stage, `${os}-${arch}`]);
      writeFileSync(`${helmArchive}.sha256sum`, `${digest('sha256', helmArchive)}  ${helmName}\n`);
    }
    files.set(`/helm/${helmName}`, helmArchive);
    files.set(`/helm/${helmName}.sha256sum`, `${helmArchive}.sha256sum`);
  }

  const corrupted = new Set<string>();
  const truncations = new Map<string, number>();
  const freezes = new Map<string, number>();
  const requests = new Map<string, number>();
  let url = '';
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://mirror').pathname;
    requests.set(path, (requests.get(path) ?? 0) + 1);
    if (path === '/controller-tools/envtest-releases.yaml') {
      response.setHeader('content-type', 'text/plain; charset=utf-8');
      response.end(indexYaml(version, archiveName, digest('sha512', archive), `${url}${archiveUrlPath}`));
      return;
    }
    const file = files.get(path);
    if (!file) {
      response.statusCode = 404;
      response.end('404: Not Found');
      return;
    }
    const size = statSync(file).size;
    response.setHeader('content-length', size);
    response.setHeader('content-type', 'application/octet-stream');
    const freezesLeft = freezes.get(path) ?? 0;
    if (freezesLeft > 0) {
      freezes.set(path, freezesLeft - 1);
      createReadStream(file, { end: Math.floor(size / 2) }).on('data', (chunk) => response.write(chunk));
      return;
    }
    const cutsLeft = truncations.get(path) ?? 0;
    if (cutsLeft > 0) {
      truncations.set(path, cutsLeft - 1);
      const half = createReadStream(file, { end: Math.floor(size / 2) });
      half.on('data', (chunk) => response.write(chunk));
      half.on('end', () => response.socket?.destroy());
      return;
    }
    if (corrupted.has(path)) {
      const bytes = readFileSync(file);
      bytes[Math.floor(bytes.length / 2)]! ^= 0xff;
      response.end(bytes);
      return;
    }
    createReadStream(file).pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    env: {
      OPGEN_ENVTEST_INDEX: `${url}/controller-tools/envtest-releases.yaml`,
      OPGEN_K8S_RELEASE_URL: `${url}/release`,
      OPGEN_HELM_RELEASE_URL: `${url}/helm`,
    },
    envtestArchive: { path: archive, urlPath: archiveUrlPath, bytes: statSync(archive).size, sha512: digest('sha512', archive) },
    requests,
    corrupt: (path) => corrupted.add(path),
    uncorrupt: (path) => corrupted.delete(path),
    truncate: (path, times) => truncations.set(path, times),
    freeze: (path, times) => freezes.set(path, times),
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** controller-tools' envtest-releases.yaml, as its release workflow writes it (one platform). */
function indexYaml(version: string, archiveName: string, sha512: string, selfLink: string): string {
  return `releases:\n  v${version}:\n    ${archiveName}:\n      hash: ${sha512}\n      selfLink: ${selfLink}\n`;
}

function digest(algorithm: 'sha256' | 'sha512', file: string): string {
  return createHash(algorithm).update(readFileSync(file)).digest('hex');
}
