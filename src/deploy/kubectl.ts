import { spawnSync } from 'node:child_process';
import { UserError } from '../errors.js';

/** What one kubectl run did; stdout and stderr are empty when they went to the terminal. */
export interface KubectlResult {
  ok: boolean;
  stdout: string;
  stderr: string;
}

/** The kubectl to run: $KUBECTL, else the one on PATH (as the scaffold's old scripts/deploy.mjs found it). */
export function kubectlBinary(): string {
  return process.env.KUBECTL || 'kubectl';
}

/**
 * Runs kubectl to the end. `input` goes to its stdin; with `inherit` its output goes
 * straight to the user's terminal, so what kubectl applied or refused shows as it happens.
 */
export function kubectl(args: readonly string[], options: { input?: string; inherit?: boolean } = {}): KubectlResult {
  const binary = kubectlBinary();
  const inherit = options.inherit === true;
  const result = spawnSync(binary, args, {
    input: options.input,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    stdio: [options.input === undefined ? 'ignore' : 'pipe', inherit ? 'inherit' : 'pipe', inherit ? 'inherit' : 'pipe'],
  });
  if (result.error) {
    if ((result.error as NodeJS.ErrnoException).code === 'ENOENT') throw new UserError(`${binary} not found: install kubectl, or set KUBECTL to its path`);
    throw result.error;
  }
  return { ok: result.status === 0, stdout: result.stdout ?? '', stderr: result.stderr ?? '' };
}

/** The first line of kubectl's output that says something. */
export function firstLine(text: string): string {
  return text.split('\n').find((line) => line.trim() !== '')?.trim() ?? '';
}
