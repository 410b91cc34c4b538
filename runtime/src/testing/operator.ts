import { basename, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createLifecycle } from './lifecycle.js';
import { followLog, type LogLine } from './log-lines.js';
import { freePort, LOOPBACK } from './ports.js';
import { describeExit, startProcess, type Exit, type ManagedProcess } from './process.js';

/** How to start an operator; see {@link startOperator}. */
export interface OperatorOptions {
  /** The project: the working dir, where `script` is. */
  dir: string;
  /**
   * The kubeconfig it runs with (`KUBECONFIG`): the control plane's admin, or better a
   * ServiceAccount's from `controlPlane.serviceAccountKubeConfig()`, so that it gets only
   * what its RBAC grants.
   */
  kubeconfigPath: string;
  /** Manager flags, after the ones that set the ports (so they may override them). */
  args?: string[];
  /** Added to this process's environment; `LOG_FORMAT` is `json` unless given here. */
  env?: Record<string, string>;
  /** The entry point, relative to `dir`. Default `dist/main.js`, what `npm run build` emits. */
  script?: string;
  /** Node's own flags, before the script (e.g. `['--import', loader]`). */
  execArgv?: string[];
  /**
   * The health probe and metrics servers: `off` (the default: two operators never clash
   * on a port) or on `free` loopback ports, which the handle reports.
   */
  ports?: 'off' | 'free';
  /** For error messages; default the name of `dir`. */
  name?: string;
}

/** The exit code, or the name of the signal that ended the process. */
export type ExitStatus = number | NodeJS.Signals;

/** A log line's `msg`, or a test on the whole line. */
export type LogMatch = string | ((line: LogLine) => boolean);

/** A running operator process. */
export interface Operator {
  readonly name: string;
  readonly pid: number;
  /** Where the health probes (`/healthz`, `/readyz`) and `/metrics` are served, with `ports: 'free'`. */
  readonly ports: { healthProbe: number; metrics: number } | undefined;
  /** Its JSON log lines so far (standard output and error), parsed, in order. */
  logs(): LogLine[];
  /** Everything it wrote so far, JSON or not: what to print when a test fails. */
  output(): string;
  /**
   * The first log line, already written or still to come, whose `msg` is `match` or
   * that `match` accepts. Rejects, with the end of its output, when the operator exits
   * or `timeoutMs` (default 30 s) passes first.
   */
  waitForLog(match: LogMatch, timeoutMs?: number): Promise<LogLine>;
  /** Settles when it has exited, however that happened. */
  readonly exited: Promise<ExitStatus>;
  /**
   * Sends `signal` (default SIGTERM, as the kubelet does), SIGKILL after `graceMs`
   * (default 40 s, past the manager's own 30 s shutdown deadline), and resolves with how
   * it exited. Call it in afterAll: it also removes the operator's temp dir.
   */
  stop(signal?: NodeJS.Signals, graceMs?: number): Promise<ExitStatus>;
  /** SIGKILL, as when its node dies; resolves once it is gone. */
  kill(): Promise<ExitStatus>;
}

const DEFAULT_GRACE_MS = 40_000;
const DEFAULT_WAIT_MS = 30_000;

/**
 * Starts an operator as its own process, as a user runs it: `node dist/main.js` in `dir`
 * with `KUBECONFIG` set, JSON logs, probes and metrics off (or on free ports). Its output
 * goes to a file in a temp dir of its own, from which the handle reads the log lines.
 * If this process exits, is signalled or killed without calling stop(), the operator is
 * killed too (the control plane's exit handlers and watchdog do the same for it).
 *
 * @example
 * const manager = await controlPlane.serviceAccountKubeConfig('system', 'controller-manager');
 * const operator = await startOperator({
 *   dir: projectDir,
 *   kubeconfigPath: manager.kubeconfigPath,
 *   args: ['--leader-elect'],
 * });
 * await operator.waitForLog('Starting workers');
 * // ... drive it through the API server ...
 * expect(await operator.stop()).toBe(0);
 */
export async function startOperator(options: OperatorOptions): Promise<Operator> {
  const name = options.name ?? basename(resolve(options.dir));
  const ports = options.ports === 'free' ? { healthProbe: await freePort(), metrics: await freePort() } : undefined;
  const portFlags = ports
    ? [`--health-probe-bind-address=${LOOPBACK}:${ports.healthProbe}`, `--metrics-bind-address=${LOOPBACK}:${ports.metrics}`]
    : ['--health-probe-bind-address=0', '--metrics-bind-address=0'];
  const args = [...(options.execArgv ?? []), options.script ?? 'dist/main.js', ...portFlags, ...(options.args ?? [])];
  const env = { ...process.env, LOG_FORMAT: 'json', ...options.env, KUBECONFIG: options.kubeconfigPath };

  const lifecycle = createLifecycle('opgen-operator-');
  const logFile = join(lifecycle.dir, 'operator.log');
  let child: ManagedProcess;
  try {
    child = lifecycle.supervise(await startProcess(name, process.execPath, args, logFile, { cwd: options.dir, env }));
  } catch (error) {
    await lifecycle.stop([]);
    throw error;
  }

  const log = followLog(logFile);
  const exited = child.exited.then((exit) => {
    log.finish();
    return exitStatus(exit);
  });
  const failure = (problem: string): Error =>
    new Error(`operator ${name} ${problem}\n--- last lines of its output ---\n${log.raw.slice(-20).join('\n') || '(none)'}`);
  const stop = async (signal: NodeJS.Signals = 'SIGTERM', graceMs = DEFAULT_GRACE_MS): Promise<ExitStatus> => {
    await child.stop(graceMs, signal);
    const status = await exited;
    await lifecycle.stop([]);
    return status;
  };

  return {
    name,
    pid: child.pid,
    ports,
    logs: () => {
      log.update();
      return [...log.parsed];
    },
    output: () => {
      log.update();
      return log.raw.join('\n');
    },
    waitForLog: async (match, timeoutMs = DEFAULT_WAIT_MS) => {
      const accepts = typeof match === 'string' ? (line: LogLine) => line.msg === match : match;
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const exit = child.exit();
        if (exit) await exited;
        else log.update();
        const found = log.parsed.find(accepts);
        if (found) return found;
        if (exit) throw failure(`exited (${describeExit(exit)}) before logging ${describeMatch(match)}`);
        if (Date.now() >= deadline) throw failure(`logged no ${describeMatch(match)} within ${timeoutMs} ms`);
        await Promise.race([sleep(50), child.exited]);
      }
    },
    exited,
    stop,
    kill: () => stop('SIGKILL'),
  };
}

function exitStatus(exit: Exit): ExitStatus {
  return exit.code ?? (exit.signal as NodeJS.Signals);
}

function describeMatch(match: LogMatch): string {
  if (typeof match === 'string') return `line with msg ${JSON.stringify(match)}`;
  const source = match.toString().replace(/\s+/g, ' ');
  return `line matching ${source.length > 160 ? `${source.slice(0, 157)}...` : source}`;
}
