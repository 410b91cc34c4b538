import { delimiter, join } from 'node:path';
import { mkdir, rename, rm } from 'node:fs/promises';
import { isExecutable } from './controlplane.js';
import { withLock } from './lock.js';
import { helmArchivePath, helmArchiveUrl, hostPlatform, kubernetesBinaryUrl, opgenCacheRoot, releaseSources, type Platform } from './platform.js';
import type { ProgressSink } from './progress.js';
import { downloadWithSumFile } from './release-binary.js';
import { extractFiles } from './tar.js';
import { HELM_VERSION, KUBERNETES_VERSION } from './versions.js';

/** Options of {@link ensureHelm} and {@link ensureKubectl}: environment, platform, where progress goes. */
export interface ToolOptions {
  env?: NodeJS.ProcessEnv;
  platform?: Platform;
  progress?: ProgressSink;
}

/** The first executable `name` on the PATH of `env`, if any. */
export function onPath(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir && isExecutable(join(dir, name))) return join(dir, name);
  }
  return undefined;
}

/**
 * A kubectl (of the harness's Kubernetes version when downloaded): `$KUBECTL`, else the one on the PATH, else the one in
 * opgen's cache (`controlplane/<version>/kubectl`, beside the test control plane), downloaded
 * there from the Kubernetes release layout (`OPGEN_K8S_RELEASE_URL`, sha256 verified) when
 * missing.
 *
 * @example
 * const kubectl = await ensureKubectl();
 */
export async function ensureKubectl(options: ToolOptions & { version?: string } = {}): Promise<string> {
  const version = options.version ?? KUBERNETES_VERSION;
  const env = options.env ?? process.env;
  if (env.KUBECTL) return env.KUBECTL;
  const found = onPath('kubectl', env);
  if (found) return found;
  const dir = join(opgenCacheRoot(env), 'controlplane', version);
  const binary = join(dir, 'kubectl');
  if (isExecutable(binary)) return binary;
  const sink = options.progress ?? process.stderr;
  const url = kubernetesBinaryUrl(releaseSources(env).kubernetesReleases, version, options.platform ?? hostPlatform(), 'kubectl');
  sink.write(`download: no kubectl on the PATH; downloading kubectl v${version} into ${dir}\n`);
  await mkdir(dir, { recursive: true });
  await withLock(`${dir}.lock`, async () => {
    if (!isExecutable(binary)) await downloadWithSumFile(url, '.sha256', binary, { executable: true, progress: sink });
  });
  return binary;
}

/**
 * A helm binary: `$HELM`, else the one on the PATH, else opgen's cache
 * (`tools/helm-<version>/helm`, where hack/helm/build.sh builds it too), downloaded there from
 * helm's release tarballs (`OPGEN_HELM_RELEASE_URL`, sha256 verified) when missing.
 *
 * @example
 * process.env.HELM = await ensureHelm();
 */
export async function ensureHelm(options: ToolOptions & { version?: string } = {}): Promise<string> {
  const env = options.env ?? process.env;
  if (env.HELM) return env.HELM;
  const found = onPath('helm', env);
  if (found) return found;
  const version = options.version ?? HELM_VERSION;
  const platform = options.platform ?? hostPlatform();
  const dir = join(opgenCacheRoot(env), 'tools', `helm-${version}`);
  const binary = join(dir, 'helm');
  if (isExecutable(binary)) return binary;
  const sink = options.progress ?? process.stderr;
  const url = helmArchiveUrl(releaseSources(env).helmReleases, version, platform);
  sink.write(`download: no helm on the PATH; downloading helm v${version} into ${dir}\n`);
  await mkdir(dir, { recursive: true });
  await withLock(`${dir}.lock`, async () => {
    if (isExecutable(binary)) return;
    const archive = join(dir, url.slice(url.lastIndexOf('/') + 1));
    const temp = `${binary}.extract-${process.pid}`;
    try {
      await downloadWithSumFile(url, '.sha256sum', archive, { progress: sink });
      const inside = helmArchivePath(platform);
      const found = await extractFiles(archive, new Map([[inside, temp]]));
      if (!found.has(inside)) throw new Error(`${url} lacks ${inside} (helm's tarballs hold <os>-<arch>/helm)`);
      await rename(temp, binary);
    } finally {
      await rm(archive, { force: true });
      await rm(temp, { force: true });
    }
  });
  return binary;
}
