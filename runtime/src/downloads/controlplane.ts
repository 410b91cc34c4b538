import { accessSync, constants, statSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { downloadFile } from './download.js';
import { findEnvtestArchive } from './envtest-index.js';
import { withLock } from './lock.js';
import { envtestArchiveName, envtestArchivePath, hostPlatform, kubernetesBinaryUrl, releaseSources, type Platform } from './platform.js';
import type { ProgressSink } from './progress.js';
import { downloadWithSumFile } from './release-binary.js';
import { extractFiles } from './tar.js';

/** The envtest tarball holds these three; kube-controller-manager comes from the Kubernetes release. */
export const ENVTEST_BINARIES = ['etcd', 'kube-apiserver', 'kubectl'] as const;
/** A binary {@link downloadControlPlane} can fetch. */
export type ControlPlaneBinary = (typeof ENVTEST_BINARIES)[number] | 'kube-controller-manager';

/** Options of {@link downloadControlPlane}. */
export interface DownloadControlPlaneOptions {
  /** Kubernetes version without the `v`, e.g. `1.36.3`. */
  version: string;
  /** The directory the binaries land in, flat, as setup-envtest lays out KUBEBUILDER_ASSETS. */
  dir: string;
  binaries: readonly ControlPlaneBinary[];
  env?: NodeJS.ProcessEnv;
  platform?: Platform;
  progress?: ProgressSink;
}

/**
 * Downloads the control plane binaries `dir` lacks: etcd, kube-apiserver and kubectl (all
 * three whenever one of them is missing) from
 * the envtest tarball that controller-tools' release index lists (sha512 from the index),
 * kube-controller-manager from the Kubernetes release layout (sha256 from the file beside
 * it). Sources are `OPGEN_ENVTEST_INDEX` and `OPGEN_K8S_RELEASE_URL`, else upstream. Two
 * processes calling this at once download once: the second waits for the first's lock.
 * Throws a DownloadError when a source cannot serve (`unreachable`) or serves other bytes
 * than published (`checksum`).
 *
 * @example
 * await downloadControlPlane({ version: '1.36.3', dir, binaries: ['etcd', 'kube-apiserver'] });
 */
export async function downloadControlPlane(options: DownloadControlPlaneOptions): Promise<void> {
  const { version, dir } = options;
  const platform = options.platform ?? hostPlatform();
  const sources = releaseSources(options.env);
  const sink = options.progress ?? process.stderr;
  await mkdir(dir, { recursive: true });
  await withLock(
    `${dir}.lock`,
    async () => {
      const missing = options.binaries.filter((name) => !isExecutable(join(dir, name)));
      // One tarball holds all three: take every one the cache lacks, not only those asked for,
      // so a later run that wants kubectl too does not download it again.
      const fromArchive = missing.some((name) => name !== 'kube-controller-manager')
        ? ENVTEST_BINARIES.filter((name) => !isExecutable(join(dir, name)))
        : [];
      if (fromArchive.length > 0) {
        const archiveName = envtestArchiveName(version, platform);
        const archive = await findEnvtestArchive(sources.envtestIndex, version, archiveName);
        const archivePath = join(dir, archiveName);
        await downloadFile(archive.url, archivePath, { checksum: { algorithm: 'sha512', hex: archive.sha512 }, progress: sink });
        try {
          await extractInPlace(archivePath, dir, fromArchive);
        } finally {
          await rm(archivePath, { force: true });
        }
      }
      if (missing.includes('kube-controller-manager')) {
        const url = kubernetesBinaryUrl(sources.kubernetesReleases, version, platform, 'kube-controller-manager');
        await downloadWithSumFile(url, '.sha256', join(dir, 'kube-controller-manager'), { executable: true, progress: sink });
      }
    },
    (owner) => sink.write(`download: waiting for another download into ${dir} (${owner})\n`),
  );
}

/** Extracts under temporary names and renames each only once all are out. */
async function extractInPlace(archive: string, dir: string, names: readonly string[]): Promise<void> {
  const temp = (name: string) => join(dir, `${name}.extract-${process.pid}`);
  const wanted = new Map(names.map((name) => [envtestArchivePath(name), temp(name)]));
  try {
    const found = await extractFiles(archive, wanted);
    const absent = [...wanted.keys()].filter((path) => !found.has(path));
    if (absent.length > 0) throw new Error(`${archive} lacks ${absent.join(', ')} (the envtest layout is controller-tools/envtest/<binary>)`);
    for (const name of names) await rename(temp(name), join(dir, name));
  } finally {
    for (const name of names) await rm(temp(name), { force: true });
  }
}

/** Whether `path` is a file this process may execute (a finished download, not a partial one). */
export function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
