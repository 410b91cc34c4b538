/**
 * The operator of a dev session as a child process, pointed at the session's kubeconfig,
 * its output handed over line by line and its reconcile records (see the runtime's
 * `onReconcile`) as messages over an IPC channel. Loading the runtime and the Kubernetes client
 * takes most of an operator's start (seconds on a busy machine), so the next process is
 * started ahead, with those loaded, and waits: a save only has it import the new code. Each
 * operator is still a fresh process; one that loses its parent (stdin closes) stops itself.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { createInterface } from 'node:readline';
import type { ReconcileRecord } from '@opgen/runtime/observe';

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
  /** The preload script's copy inside the project (`.opgen/dev/preload.mjs`). */
  preload: string;
  /** Each line the operator prints, stdout and stderr alike. */
  onLine: (line: string) => void;
  /** Each reconcile the operator finished. */
  onReconcile: (record: ReconcileRecord) => void;
}

/** The manager's own grace period is 30 s; a little more before the process is killed. */
const DEFAULT_GRACE_MS = 35_000;

/** What the spare runs (see the file); the session copies it into the project first. */
export const PRELOAD_TEMPLATE = new URL('../templates/dev/preload.mjs', import.meta.url);

export function prepareOperator(launch: OperatorLaunch): SpareOperator {
  // No probe or metrics port: a restart must not wait for the old one's port.
  const args = [`--kubeconfig=${launch.kubeconfigPath}`, '--health-probe-bind-address=0', '--metrics-bind-address=0'];
  // A namespaced operator needs its namespace; in a dev cluster that is `default` unless the user said otherwise.
  const env = { ...process.env, WATCH_NAMESPACE: process.env.WATCH_NAMESPACE ?? 'default' };
  const child = spawn(process.execPath, [launch.preload, ...args], { cwd: launch.root, env, stdio: ['pipe', 'pipe', 'pipe', 'ipc'] }) as ChildProcessByStdio<Writable, Readable, Readable>;
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
      child.on('message', (message: { reconcile?: ReconcileRecord }) => {
        if (message.reconcile) launch.onReconcile(message.reconcile);
      });
      child.stdin.write(`${entry}\n`);
      return { pid: child.pid, exited, stop };
    },
    async discard() {
      child.stdin.end();
      await stop(5_000);
    },
  };
}
