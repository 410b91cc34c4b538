import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';

/** How a supervised process ended. */
export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** A control plane process: its own process group, output captured in a log file. */
export interface ManagedProcess {
  /** The binary's name, e.g. `kube-apiserver`. */
  readonly name: string;
  /** Its pid, which is also its process group id. */
  readonly pid: number;
  readonly logFile: string;
  /** Settles when the process has exited. */
  readonly exited: Promise<Exit>;
  /** The exit, once it happened. */
  exit(): Exit | undefined;
  /** `signal` (default SIGTERM), then SIGKILL after `graceMs`; resolves once it is gone. */
  stop(graceMs?: number, signal?: NodeJS.Signals): Promise<void>;
  /** SIGKILL now, synchronously: for exit handlers. */
  killNow(): void;
}

/** Registers a just-started process for cleanup before anything waits on it. */
export type Supervise = (process: ManagedProcess) => ManagedProcess;

/**
 * Starts `binary` detached in its own process group with stdout and stderr going to
 * `logFile`; `options` set its working dir and environment (default: ours).
 */
export async function startProcess(
  name: string,
  binary: string,
  args: string[],
  logFile: string,
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<ManagedProcess> {
  const fd = openSync(logFile, 'a');
  let child;
  try {
    child = spawn(binary, args, { ...options, detached: true, stdio: ['ignore', fd, fd] });
  } finally {
    closeSync(fd);
  }
  let exit: Exit | undefined;
  const exited = new Promise<Exit>((resolve) =>
    child.once('exit', (code, signal) => {
      exit = { code, signal };
      resolve(exit);
    }),
  );
  await new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', (error) => reject(new Error(`cannot start ${name} (${binary}): ${error.message}`)));
  });
  // Our own run must not wait for the control plane: stop() and the exit hooks end it.
  child.unref();
  const pid = child.pid as number;

  const signalGroup = (signal: NodeJS.Signals): void => {
    if (exit) return;
    try {
      process.kill(-pid, signal);
    } catch {
      // Already gone between the check and the signal.
    }
  };

  return {
    name,
    pid,
    logFile,
    exited,
    exit: () => exit,
    killNow: () => signalGroup('SIGKILL'),
    stop: async (graceMs = 5000, signal = 'SIGTERM') => {
      if (exit) return;
      signalGroup(signal);
      const timer = setTimeout(() => signalGroup('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** The last `lines` lines of a log file, or a note that there is none. */
export function logTail(logFile: string, lines = 20): string {
  let text: string;
  try {
    text = readFileSync(logFile, 'utf8');
  } catch {
    return '(no log)';
  }
  const all = text.trimEnd().split('\n');
  return all.length === 1 && all[0] === '' ? '(empty log)' : all.slice(-lines).join('\n');
}

/** Describes an exit for an error message. */
export function describeExit(exit: Exit): string {
  return exit.signal ? `killed by ${exit.signal}` : `exit code ${exit.code}`;
}
