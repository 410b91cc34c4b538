import { spawn, type ChildProcess } from 'node:child_process';

export type LogLine = Record<string, unknown> & { msg?: string };

/** A built operator running as a child process, with the JSON log lines it wrote so far. */
export interface OperatorProcess {
  readonly child: ChildProcess;
  readonly lines: LogLine[];
  readonly exited: Promise<number | string>;
  /** Waits for a log line matching `predicate`. */
  line(what: string, predicate: (line: LogLine) => boolean, timeoutMs?: number): Promise<LogLine>;
}

/** Starts `command` (e.g. `node dist/main.js ...`) in `cwd` with JSON logs. */
export function startOperator(cwd: string, command: readonly string[], env: Record<string, string> = {}): OperatorProcess {
  const [file, ...args] = command;
  const child = spawn(file === 'node' ? process.execPath : file!, args, {
    cwd,
    env: { ...process.env, LOG_FORMAT: 'json', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: LogLine[] = [];
  for (const stream of [child.stdout!, child.stderr!]) {
    let partial = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      const complete = (partial + chunk).split('\n');
      partial = complete.pop()!;
      for (const text of complete.filter((t) => t.trim())) {
        try {
          lines.push(JSON.parse(text) as LogLine);
        } catch {
          lines.push({ msg: text, raw: true });
        }
      }
    });
  }
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  return {
    child,
    lines,
    exited,
    line: async (what, predicate, timeoutMs = 60_000) => {
      try {
        return await eventually(what, () => lines.find(predicate), timeoutMs);
      } catch (error) {
        const tail = lines.slice(-15).map((l) => JSON.stringify(l)).join('\n');
        throw new Error(`${(error as Error).message} (operator ${child.pid}); its last lines:\n${tail}`);
      }
    },
  };
}

/** Ends `operators` that still run. */
export async function stopAll(operators: readonly OperatorProcess[]): Promise<void> {
  for (const o of operators) if (o.child.exitCode === null && o.child.signalCode === null) o.child.kill('SIGKILL');
  await Promise.all(operators.map((o) => o.exited));
}

/** Polls `probe` every 200 ms until it returns something other than undefined. */
export async function eventually<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
