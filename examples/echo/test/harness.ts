import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { binariesCacheDir } from '@opgen/runtime/testing';

/** The example's root: where `npm run build` runs and `dist/main.js` lives. */
export const exampleDir = fileURLToPath(new URL('..', import.meta.url));

interface Output {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], input = ''): Promise<Output> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: exampleDir, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

/** `npm run build` in the example: the operator runs from what tsc emits. */
export async function buildExample(): Promise<void> {
  const { code, stdout, stderr } = await run('npm', ['run', 'build']);
  if (code !== 0) throw new Error(`npm run build failed:\n${stdout}${stderr}`);
}

/** kubectl as a user runs it, pointed at one cluster. */
export interface Kubectl {
  /** Resolves to stdout; rejects with kubectl's stderr when it exits non-zero. */
  (args: string[], input?: string): Promise<string>;
  /** `kubectl get <resource> [name] -o json`; undefined when the named object does not exist. */
  get<T = any>(resource: string, name?: string): Promise<T | undefined>;
  /** `kubectl apply --server-side -f -` of objects given as plain data. */
  apply(...objects: object[]): Promise<string>;
}

/** The kubectl of the control plane's build; the kubeconfig's namespace is `default`. */
export function kubectlFor(kubeconfigPath: string): Kubectl {
  const binary = join(process.env.KUBEBUILDER_ASSETS || binariesCacheDir(), 'kubectl');
  const kubectl = async (args: string[], input?: string): Promise<string> => {
    const { code, stdout, stderr } = await run(binary, ['--kubeconfig', kubeconfigPath, ...args], input);
    if (code !== 0) throw new Error(`kubectl ${args.join(' ')}: ${stderr.trim()}`);
    return stdout;
  };
  return Object.assign(kubectl, {
    async get(resource: string, name?: string) {
      const out = await kubectl(['get', resource, ...(name ? [name, '--ignore-not-found'] : []), '-o', 'json']);
      return out.trim() ? JSON.parse(out) : undefined;
    },
    apply: (...objects: object[]) =>
      kubectl(['apply', '--server-side', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objects })),
  });
}

/**
 * Installs config/rbac as `npm run deploy` would (without the name prefix): the manager's
 * ServiceAccount `system/controller-manager`, the ClusterRole its RBAC markers give it, and
 * leader election. Outside a cluster the operator keeps its Lease in `default`, so the
 * leader-election Role is granted there too.
 */
export async function installRbac(kubectl: Kubectl): Promise<void> {
  await kubectl(['create', 'namespace', 'system']);
  await kubectl(['apply', '--server-side', '-k', 'config/rbac']);
  const role = JSON.parse(await kubectl(['get', 'role', 'leader-election-role', '--namespace', 'system', '-o', 'json']));
  await kubectl.apply({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'leader-election-role', namespace: 'default' }, rules: role.rules });
  await kubectl(['create', 'rolebinding', 'leader-election-rolebinding', '--role=leader-election-role', '--serviceaccount=system:controller-manager']);
}

/** One JSON log line of the operator. */
export type LogLine = Record<string, unknown> & { msg?: string };

/** A replica of the operator: `node dist/main.js --leader-elect` with KUBECONFIG, as a process. */
export interface Operator {
  readonly name: string;
  /** The JSON lines it logged so far. */
  logs(): LogLine[];
  /** Its raw output so far: printed when a test fails. */
  output(): string;
  /** Sends `signal` (SIGTERM stops it gracefully, SIGKILL as a crashed node) and waits for the exit. */
  kill(signal: NodeJS.Signals): Promise<void>;
}

export function startOperator(name: string, kubeconfigPath: string): Operator {
  const child: ChildProcess = spawn(
    process.execPath,
    ['dist/main.js', '--leader-elect', '--health-probe-bind-address=0', '--metrics-bind-address=0'],
    { cwd: exampleDir, env: { ...process.env, KUBECONFIG: kubeconfigPath, LOG_FORMAT: 'json' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const lines: LogLine[] = [];
  let partial = '';
  const collect = (chunk: Buffer): void => {
    output += chunk.toString();
    const text = partial + chunk.toString();
    const complete = text.split('\n');
    partial = complete.pop() ?? '';
    for (const line of complete) {
      try {
        lines.push(JSON.parse(line) as LogLine);
      } catch {
        // Not a log line (e.g. a Node warning): it stays in output().
      }
    }
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    name,
    logs: () => lines,
    output: () => output,
    async kill(signal) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

/** The first log line with message `msg`, if any. */
export function logged(operator: Operator, msg: string): LogLine | undefined {
  return operator.logs().find((line) => line.msg === msg);
}
