import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { binariesCacheDir, startControlPlane, type ControlPlane } from '@opgen/runtime/testing';

/** The example's root: where `npm run build` runs and `dist/main.js` lives. */
export const exampleDir = fileURLToPath(new URL('..', import.meta.url));

/** What a user has: a cluster with kube-controller-manager, and kubectl pointed at it. */
export interface Cluster {
  controlPlane: ControlPlane;
  /** Runs kubectl with the cluster's kubeconfig; resolves to its stdout, rejects with its stderr. */
  kubectl(args: string[]): Promise<string>;
  /** `kubectl get -o json` of one object, or undefined when it does not exist. */
  get<T>(resource: string, name: string, namespace?: string): Promise<T | undefined>;
}

export async function startCluster(): Promise<Cluster> {
  const controlPlane = await startControlPlane({ controllerManager: true });
  const binary = join(process.env.KUBEBUILDER_ASSETS || binariesCacheDir(), 'kubectl');
  const kubectl = async (args: string[]): Promise<string> => {
    const { code, stdout, stderr } = await run(binary, ['--kubeconfig', controlPlane.kubeconfigPath, ...args], { cwd: exampleDir });
    if (code !== 0) throw new Error(`kubectl ${args.join(' ')}: ${stderr.trim()}`);
    return stdout;
  };
  return {
    controlPlane,
    kubectl,
    async get(resource, name, namespace) {
      const scope = namespace ? ['-n', namespace] : [];
      const out = await kubectl(['get', resource, name, ...scope, '--ignore-not-found', '--show-managed-fields', '-o', 'json']);
      return out.trim() ? JSON.parse(out) : undefined;
    },
  };
}

/**
 * The manager's ServiceAccount, bound to the role `opgen manifests` wrote from the RBAC
 * markers (config/rbac, as `npm run deploy` installs it). Returns its kubeconfig file: an
 * operator running with it can do only what its markers ask for.
 */
export async function managerIdentity(cluster: Cluster): Promise<string> {
  await cluster.kubectl(['create', 'namespace', 'system']);
  await cluster.kubectl(['apply', '--server-side', '-k', 'config/rbac']);
  return (await cluster.controlPlane.serviceAccountKubeConfig('system', 'controller-manager')).kubeconfigPath;
}

/** The operator as a real process: `node dist/main.js` with KUBECONFIG, as a user runs it. */
export interface Operator {
  /** Everything it logged so far: shown when a test fails. */
  logs(): string;
  /** SIGTERM, then waits for it to exit. */
  stop(): Promise<void>;
}

export function startOperator(kubeconfigPath: string): Operator {
  const child = spawn(process.execPath, ['dist/main.js', '--health-probe-bind-address=0', '--metrics-bind-address=0'], {
    cwd: exampleDir,
    env: { ...process.env, KUBECONFIG: kubeconfigPath },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    logs: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** `npm run build` in the example: the operator runs from what tsc emits. */
export async function buildExample(): Promise<void> {
  const { code, stdout, stderr } = await run('npm', ['run', 'build'], { cwd: exampleDir });
  if (code !== 0) throw new Error(`npm run build failed:\n${stdout}${stderr}`);
}

function run(command: string, args: string[], options: { cwd: string }): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(command, args, { cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}
