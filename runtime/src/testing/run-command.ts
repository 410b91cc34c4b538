import { spawn } from 'node:child_process';

/** How a command ended. */
export interface CommandResult {
  /** The exit code; `null` when a signal ended it. */
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `command` to completion, capturing its output; rejects only when it cannot start. */
export function runCommand(
  command: string,
  args: string[],
  options: { cwd?: string | undefined; input?: string | undefined } = {},
): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.once('error', (error) => reject(new Error(`cannot run ${command}: ${error.message}`)));
    child.once('close', (code) =>
      resolve({ code, stdout: Buffer.concat(stdout).toString('utf8'), stderr: Buffer.concat(stderr).toString('utf8') }),
    );
    if (child.stdin) {
      // The command may exit (e.g. on a bad flag) before it reads its input.
      child.stdin.on('error', () => undefined);
      child.stdin.end(options.input);
    }
  });
}
