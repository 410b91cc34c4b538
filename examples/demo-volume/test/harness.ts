import { execFile, spawn, type PromiseWithChild } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { resolveBinaries, type ControlPlane } from '@opgen/runtime/testing';

const run = promisify(execFile);

/** Runs kubectl as the control plane's admin and resolves with its standard output. */
export interface Kubectl {
  (...args: string[]): Promise<string>;
  /** `kubectl apply --server-side -f -` of `object`. */
  apply(object: object): Promise<string>;
}

/** kubectl from the control plane's assets directory, pointed at `controlPlane`. */
export async function kubectlFor(controlPlane: ControlPlane): Promise<Kubectl> {
  const binary = join(dirname((await resolveBinaries()).kubeApiServer), 'kubectl');
  if (!existsSync(binary)) throw new Error(`no kubectl next to the control plane binaries (${binary})`);
  const env = { ...process.env, KUBECONFIG: controlPlane.kubeconfigPath };
  const kubectl = async (...args: string[]): Promise<string> => (await run(binary, args, { env })).stdout;
  return Object.assign(kubectl, {
    apply: (object: object) => withInput(run(binary, ['apply', '--server-side', '-f', '-'], { env }), JSON.stringify(object)),
  });
}

/** Writes `input` to the standard input of the command `running` started. */
async function withInput(running: PromiseWithChild<{ stdout: string }>, input: string): Promise<string> {
  running.child.stdin?.end(input);
  return (await running).stdout;
}

/** `npm run build` in the project: the operator runs from dist/, as `npm start` runs it. */
export async function build(projectDir: string): Promise<void> {
  await run('npm', ['run', 'build'], { cwd: projectDir });
}

/** The operator running as its own process. */
export interface OperatorProcess {
  /** Its log lines so far, parsed (it logs JSON lines to standard error). */
  logs(): Array<Record<string, unknown>>;
  /** Sends SIGTERM (SIGKILL after 40 s) and resolves with the exit code. */
  stop(): Promise<number | null>;
}

/** Starts `node dist/main.js` in `projectDir` against the cluster of `kubeconfigPath`, probes and metrics off. */
export function startOperator(projectDir: string, kubeconfigPath: string): OperatorProcess {
  const child = spawn(process.execPath, ['dist/main.js', '--health-probe-bind-address=0', '--metrics-bind-address=0'], {
    cwd: projectDir,
    env: { ...process.env, KUBECONFIG: kubeconfigPath, LOG_FORMAT: 'json' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  for (const stream of [child.stdout, child.stderr]) createInterface({ input: stream }).on('line', (line) => lines.push(line));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  return {
    logs: () => lines.flatMap((line) => {
      try {
        return [JSON.parse(line) as Record<string, unknown>];
      } catch {
        return [{ msg: line }];
      }
    }),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 40_000);
      try {
        return await exited;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
