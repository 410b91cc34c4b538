/**
 * The operator of a dev session as a child process, pointed at the session's kubeconfig,
 * its output passed through line by line. Loading the runtime and the Kubernetes client
 * takes most of an operator's start (seconds on a busy machine), so the next process is
 * started ahead, with those loaded, and waits: a save only has it import the new code. Each
 * operator is still a fresh process; one that loses its parent (stdin closes) stops itself.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/** A started operator. */
export interface OperatorProcess {
  readonly pid: number | undefined;
  /** Resolves with the exit code (or the signal's name) once the process ended. */
  readonly exited: Promise<number | string>;
  /** SIGTERM (the manager's graceful shutdown), then SIGKILL after `graceMs`; resolves once it ended. */
  stop(graceMs?: number): Promise<void>;
}

/** A process with the runtime loaded, waiting to run an entry point. */
export interface SpareOperator {
  /** Runs `entry` (the compiled main.js) in it. */
  activate(entry: string): OperatorProcess;
  /** Ends it unused. */
  discard(): Promise<void>;
}

/** How the process is started. */
export interface OperatorLaunch {
  root: string;
  kubeconfigPath: string;
  /** Each line the operator prints, stdout and stderr alike. */
  onLine: (line: string) => void;
}

/** The manager's own grace period is 30 s; a little more before the process is killed. */
const DEFAULT_GRACE_MS = 35_000;

/**
 * What the spare runs: load what every operator loads, then wait for one line naming the
 * entry, make it argv[1] (the manager reads its flags from argv[2] on) and import it.
 */
const PRELOAD = `
import { pathToFileURL } from 'node:url';
process.stdin.setEncoding('utf8');
let buffer = '';
let entry;
// opgen dev went away (even by SIGKILL): its operator stops as if Ctrl-C had reached it.
process.stdin.on('end', () => (entry ? process.kill(process.pid, 'SIGTERM') : process.exit(0)));
process.stdin.on('data', (chunk) => {
  buffer += chunk;
  const end = buffer.indexOf('\\n');
  if (entry !== undefined || end < 0) return;
  entry = buffer.slice(0, end);
  process.stdin.unref();
  process.argv = [process.argv[0], entry, ...process.argv.slice(1)];
  import(pathToFileURL(entry).href);
});
await import('@opgen/runtime');
await import('@kubernetes/client-node').catch(() => undefined);
`;

export function prepareOperator(launch: OperatorLaunch): SpareOperator {
  // No probe or metrics port: a restart must not wait for the old one's port.
  const args = [`--kubeconfig=${launch.kubeconfigPath}`, '--health-probe-bind-address=0', '--metrics-bind-address=0'];
  // A namespaced operator needs its namespace; in a dev cluster that is `default` unless the user said otherwise.
  const env = { ...process.env, WATCH_NAMESPACE: process.env.WATCH_NAMESPACE ?? 'default' };
  const child = spawn(process.execPath, ['--input-type=module', '-e', PRELOAD, '--', ...args], { cwd: launch.root, env, stdio: ['pipe', 'pipe', 'pipe'] });
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown'));
    child.once('error', (error) => resolve(error.message));
  });
  // A write to a spare that died is reported by its exit, not by an EPIPE thrown here.
  child.stdin.on('error', () => undefined);
  const ended = () => child.exitCode !== null || child.signalCode !== null;
  const stop = async (graceMs = DEFAULT_GRACE_MS) => {
    if (ended()) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  };
  return {
    activate(entry) {
      for (const stream of [child.stdout, child.stderr]) createInterface({ input: stream }).on('line', launch.onLine);
      child.stdin.write(`${entry}\n`);
      return { pid: child.pid, exited, stop };
    },
    async discard() {
      child.stdin.end();
      await stop(5_000);
    },
  };
}
