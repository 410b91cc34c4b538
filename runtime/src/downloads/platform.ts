import { homedir } from 'node:os';
import { join } from 'node:path';

/** An operating system and CPU architecture in Go's names, as release file names spell them. */
export interface Platform {
  os: string;
  arch: string;
}

const goOs: Record<string, string> = { linux: 'linux', darwin: 'darwin', win32: 'windows' };
const goArch: Record<string, string> = { x64: 'amd64', arm64: 'arm64', ppc64: 'ppc64le', s390x: 's390x' };

/**
 * This machine (or Node's `platform`/`arch` given) in Go's names (`linux`/`amd64`, `darwin`/`arm64`, ...).
 *
 * @example
 * hostPlatform('darwin', 'x64'); // { os: 'darwin', arch: 'amd64' }
 */
export function hostPlatform(platform: string = process.platform, arch: string = process.arch): Platform {
  return { os: goOs[platform] ?? platform, arch: goArch[arch] ?? arch };
}

/** Where setup-envtest publishes its index; what `setup-envtest --index` defaults to. */
export const DEFAULT_ENVTEST_INDEX = 'https://raw.githubusercontent.com/kubernetes-sigs/controller-tools/HEAD/envtest-releases.yaml';
/** The Kubernetes release layout: `<base>/v<version>/bin/<os>/<arch>/<binary>`. */
export const DEFAULT_K8S_RELEASE_URL = 'https://dl.k8s.io/release';
/** Helm's release tarballs: `<base>/helm-v<version>-<os>-<arch>.tar.gz`. */
export const DEFAULT_HELM_RELEASE_URL = 'https://get.helm.sh';

/** The mirrors to download from: the environment's, else upstream. */
export interface ReleaseSources {
  /** `OPGEN_ENVTEST_INDEX`: an index in controller-tools' envtest-releases.yaml format. */
  envtestIndex: string;
  /** `OPGEN_K8S_RELEASE_URL`: the base of the Kubernetes release layout (kube-controller-manager, kubectl). */
  kubernetesReleases: string;
  /** `OPGEN_HELM_RELEASE_URL`: the base of helm's release tarballs. */
  helmReleases: string;
}

/**
 * Where to download from: the mirror variables of `env`, else upstream.
 *
 * @example
 * const env = { OPGEN_K8S_RELEASE_URL: 'https://mirror.example.com/k8s/' };
 * releaseSources(env).kubernetesReleases; // 'https://mirror.example.com/k8s'
 */
export function releaseSources(env: NodeJS.ProcessEnv = process.env): ReleaseSources {
  return {
    envtestIndex: env.OPGEN_ENVTEST_INDEX || DEFAULT_ENVTEST_INDEX,
    kubernetesReleases: trimSlash(env.OPGEN_K8S_RELEASE_URL || DEFAULT_K8S_RELEASE_URL),
    helmReleases: trimSlash(env.OPGEN_HELM_RELEASE_URL || DEFAULT_HELM_RELEASE_URL),
  };
}

/** The envtest tarball's name in the index, e.g. `envtest-v1.36.3-linux-amd64.tar.gz`. */
export function envtestArchiveName(version: string, platform: Platform): string {
  return `envtest-v${version}-${platform.os}-${platform.arch}.tar.gz`;
}

/** Where the envtest tarball keeps each binary: `controller-tools/envtest/<name>`. */
export function envtestArchivePath(name: string): string {
  return `controller-tools/envtest/${name}`;
}

/** A binary of a Kubernetes release; its sha256 is at the same URL plus `.sha256`. */
export function kubernetesBinaryUrl(base: string, version: string, platform: Platform, name: string): string {
  const exe = platform.os === 'windows' ? '.exe' : '';
  return `${trimSlash(base)}/v${version}/bin/${platform.os}/${platform.arch}/${name}${exe}`;
}

/** helm's release tarball; its sha256 is at the same URL plus `.sha256sum`. */
export function helmArchiveUrl(base: string, version: string, platform: Platform): string {
  return `${trimSlash(base)}/helm-v${version}-${platform.os}-${platform.arch}.tar.gz`;
}

/** Where helm's tarball keeps the binary: `<os>-<arch>/helm`. */
export function helmArchivePath(platform: Platform): string {
  return `${platform.os}-${platform.arch}/helm${platform.os === 'windows' ? '.exe' : ''}`;
}

/**
 * opgen's cache: `$OPGEN_CACHE_DIR`, else `$XDG_CACHE_HOME/opgen`, else `~/.cache/opgen`.
 * The control plane goes under `controlplane/<version>/`, tools under `tools/<tool>-<version>/`.
 */
export function opgenCacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  return env.OPGEN_CACHE_DIR || join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'opgen');
}

/**
 * The directory `setup-envtest use <version>` fills (its default store), so binaries it
 * downloaded are used as they are: `~/Library/Application Support/io.kubebuilder.envtest` on
 * macOS, else `${XDG_DATA_HOME:-~/.local/share}/kubebuilder-envtest`, then `k8s/<version>-<os>-<arch>`.
 */
export function setupEnvtestDir(version: string, platform: Platform, env: NodeJS.ProcessEnv = process.env): string {
  const home = env.HOME || homedir();
  const store =
    platform.os === 'darwin'
      ? join(home, 'Library/Application Support/io.kubebuilder.envtest')
      : join(env.XDG_DATA_HOME || join(home, '.local/share'), 'kubebuilder-envtest');
  return join(store, 'k8s', `${version}-${platform.os}-${platform.arch}`);
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
