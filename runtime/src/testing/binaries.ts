import { execFile, spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  downloadControlPlane,
  DownloadError,
  hostPlatform,
  isExecutable,
  KUBERNETES_VERSION,
  opgenCacheRoot,
  releaseSources,
  setupEnvtestDir,
  type ControlPlaneBinary,
} from '../downloads/index.js';

export { KUBERNETES_VERSION };

/** Absolute paths of the control plane executables. */
export interface ControlPlaneBinaries {
  etcd: string;
  kubeApiServer: string;
  /** Present when it was asked for. */
  kubeControllerManager?: string;
  /** Present when it was asked for; setup-envtest's assets have it too. */
  kubectl?: string;
}

const names = {
  etcd: 'etcd',
  kubeApiServer: 'kube-apiserver',
  kubeControllerManager: 'kube-controller-manager',
  kubectl: 'kubectl',
} as const satisfies Record<string, ControlPlaneBinary>;

type Role = keyof typeof names;

/**
 * Where downloads and the build script put the binaries:
 * `$OPGEN_CACHE_DIR` or `$XDG_CACHE_HOME/opgen` or `~/.cache/opgen`, then
 * `controlplane/<kubernetes version>` (the layout setup-envtest gives KUBEBUILDER_ASSETS).
 */
export function binariesCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(opgenCacheRoot(env), 'controlplane', KUBERNETES_VERSION);
}

/**
 * The build script ships in this package beside src/ and dist/, so an installed project
 * builds its binaries without an opgen checkout.
 */
const buildScript = fileURLToPath(new URL('../../controlplane/build.sh', import.meta.url));

/**
 * Finds the control plane binaries, in this order for each binary: the directory named by
 * `KUBEBUILDER_ASSETS` (what `setup-envtest use -p path` prints; it has no
 * kube-controller-manager), opgen's cache, setup-envtest's own store; then downloads the
 * missing ones into opgen's cache (controller-tools' envtest release index, sha512 verified;
 * kube-controller-manager from the Kubernetes release, sha256 verified; mirrors in
 * `OPGEN_ENVTEST_INDEX` and `OPGEN_K8S_RELEASE_URL`); and only when no download can be had,
 * builds them from Go modules if Go is installed. Throws a one-line error that says the ways
 * out otherwise. A checksum mismatch is never papered over by a build: it throws.
 *
 * @example
 * const { etcd, kubeApiServer } = await resolveBinaries();
 */
export async function resolveBinaries(
  options: { controllerManager?: boolean; kubectl?: boolean; env?: NodeJS.ProcessEnv } = {},
): Promise<ControlPlaneBinaries> {
  const env = options.env ?? process.env;
  const roles: Role[] = ['etcd', 'kubeApiServer'];
  if (options.controllerManager) roles.push('kubeControllerManager');
  if (options.kubectl) roles.push('kubectl');

  const assets = env.KUBEBUILDER_ASSETS;
  if (assets && !isDirectory(assets)) {
    throw new Error(`KUBEBUILDER_ASSETS=${assets} is not a directory; point it at the directory setup-envtest prints`);
  }
  const cache = binariesCacheDir(env);
  const dirs = [...(assets ? [assets] : []), cache, setupEnvtestDir(KUBERNETES_VERSION, hostPlatform(), env)];

  let found = lookUp(roles, dirs);
  let missing = roles.filter((role) => !found[role]);
  let unreachable: DownloadError | undefined;
  if (missing.length > 0) {
    const list = missing.map((role) => names[role]);
    process.stderr.write(`controlplane: downloading ${list.join(', ')} v${KUBERNETES_VERSION} into ${cache} (once per Kubernetes version)\n`);
    try {
      await downloadControlPlane({ version: KUBERNETES_VERSION, dir: cache, binaries: list, env });
    } catch (error) {
      if (!(error instanceof DownloadError && error.reason === 'unreachable')) throw error;
      unreachable = error;
    }
    found = lookUp(roles, dirs);
    missing = roles.filter((role) => !found[role]);
  }
  const goBuild = missing.length > 0 && existsSync(buildScript) && (await hasGo(env));
  if (goBuild) {
    process.stderr.write(
      `controlplane: ${unreachable?.message ?? 'no download'}; building ${missing.map((role) => names[role]).join(', ')} with Go into ${cache} ` +
        `(once per Kubernetes version; a cold build takes many minutes)\n`,
    );
    await runBuild(env);
    found = lookUp(roles, dirs);
    missing = roles.filter((role) => !found[role]);
  }
  if (missing.length > 0) throw new Error(notFound(missing, dirs, unreachable, goBuild, env));
  return found as ControlPlaneBinaries;
}

/** One line: what is missing, why the download failed, and the three ways out. */
function notFound(missing: Role[], dirs: string[], unreachable: DownloadError | undefined, built: boolean, env: NodeJS.ProcessEnv): string {
  const list = missing.map((role) => names[role]).join(', ');
  const sources = releaseSources(env);
  const mirror =
    `point OPGEN_ENVTEST_INDEX at a mirror of ${sources.envtestIndex}` +
    (missing.includes('kubeControllerManager') ? ` and OPGEN_K8S_RELEASE_URL at a mirror of ${sources.kubernetesReleases}` : '');
  const why = unreachable ? unreachable.message : `looked in ${dirs.join(', ')}`;
  if (built) return `control plane binaries not found after the Go build: ${list} (${why}); see the build's output above`;
  return (
    `control plane binaries not found: ${list}; ${why}. Either set KUBEBUILDER_ASSETS to a directory holding them ` +
    `(\`setup-envtest use ${KUBERNETES_VERSION} -p path\`), or install Go (go.dev/doc/install) so the next run builds them ` +
    `(or run \`bash ${buildScript}\`), or ${mirror}`
  );
}

function lookUp(roles: Role[], dirs: string[]): Partial<ControlPlaneBinaries> {
  const found: Partial<ControlPlaneBinaries> = {};
  for (const role of roles) {
    const hit = dirs.map((dir) => join(dir, names[role])).find(isExecutable);
    if (hit) found[role] = hit;
  }
  return found;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function hasGo(env: NodeJS.ProcessEnv): Promise<boolean> {
  return new Promise((resolve) => execFile('go', ['version'], { env }, (error) => resolve(!error)));
}

/** Builds into the cache; progress goes to our stderr because a cold build takes minutes. */
function runBuild(env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [buildScript], { env, stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${buildScript} failed (exit ${code}); see its output above`)),
    );
  });
}
