import { execFile, spawn } from 'node:child_process';
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The Kubernetes release the harness is built and tested against. Keep in step with
 * `controlplane/versions.env` in this package, which builds these binaries.
 */
export const KUBERNETES_VERSION = '1.36.3';

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
} as const;

type Role = keyof typeof names;

/**
 * Where the build script puts the binaries it builds:
 * `$OPGEN_CACHE_DIR` or `$XDG_CACHE_HOME/opgen` or `~/.cache/opgen`, then
 * `controlplane/<kubernetes version>` (the layout setup-envtest gives KUBEBUILDER_ASSETS).
 */
export function binariesCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const root = env.OPGEN_CACHE_DIR || join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'opgen');
  return join(root, 'controlplane', KUBERNETES_VERSION);
}

/**
 * The build script ships in this package beside src/ and dist/, so an installed project
 * builds its binaries without an opgen checkout.
 */
const buildScript = fileURLToPath(new URL('../../controlplane/build.sh', import.meta.url));

/**
 * Finds the control plane binaries, in this order for each binary: the directory named by
 * `KUBEBUILDER_ASSETS` (what `setup-envtest use -p path` prints; it has no
 * kube-controller-manager), the build cache, and finally a build from Go modules when Go
 * and the build script are available. Throws an error that says how to get them otherwise.
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
  const dirs = assets ? [assets, cache] : [cache];

  let found = lookUp(roles, dirs);
  let missing = roles.filter((role) => !found[role]);
  if (missing.length > 0 && existsSync(buildScript) && (await hasGo(env))) {
    process.stderr.write(
      `controlplane: ${missing.map((role) => names[role]).join(', ')} not found; building them with Go into ${cache} ` +
        `(once per Kubernetes version; a cold build takes many minutes)\n`,
    );
    await runBuild(env);
    found = lookUp(roles, dirs);
    missing = roles.filter((role) => !found[role]);
  }
  if (missing.length > 0) {
    const list = missing.map((role) => names[role]).join(', ');
    const looked = dirs.join(', ');
    throw new Error(
      `control plane binaries not found: ${list} (looked in ${looked}). ` +
        `Either install Go (go.dev/doc/install), which the next run uses to build them (or run \`bash ${buildScript}\`), ` +
        `or run \`setup-envtest use ${KUBERNETES_VERSION} -p path\` and set KUBEBUILDER_ASSETS to the directory it prints` +
        (options.controllerManager ? ' (setup-envtest has no kube-controller-manager: it must come from the build)' : ''),
    );
  }
  return found as ControlPlaneBinaries;
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

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
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
