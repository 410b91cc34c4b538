import { spawnSync } from 'node:child_process';
import { UserError } from './errors.js';

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
 * Makes sure the commands that run kubectl have one: when neither `KUBECTL` nor the PATH
 * names one, a kubectl of the Kubernetes version @opgen/runtime tests against is downloaded
 * (sha256 verified, `OPGEN_K8S_RELEASE_URL` for a mirror) into opgen's cache, once, and used.
 */
export async function provideKubectl(): Promise<void> {
  if (process.env.KUBECTL) return;
  const { DownloadError, ensureKubectl, onPath } = await import('@opgen/runtime/downloads');
  if (onPath('kubectl')) return;
  try {
    process.env.KUBECTL = await ensureKubectl();
  } catch (error) {
    if (!(error instanceof DownloadError)) throw error;
    throw new UserError(`no kubectl on the PATH, and ${error.message}`, undefined, 'install kubectl, set KUBECTL to its path, or point OPGEN_K8S_RELEASE_URL at a mirror of https://dl.k8s.io/release');
  }
}

/** How {@link kubectl} runs. */
export interface KubectlOptions {
  /** Written to kubectl's stdin. */
  input?: string;
  /** kubectl's output goes straight to the user's terminal, so what it applied or refused shows as it happens. */
  inherit?: boolean;
  cwd?: string;
  /** What the command needs kubectl for, said when there is none (e.g. "opgen edit --plugins helm builds config/default with `kubectl kustomize`"). */
  purpose?: string;
}

/** Runs kubectl to the end; every opgen command that needs kubectl runs it through here. */
export function kubectl(args: readonly string[], options: KubectlOptions = {}): KubectlResult {
  const binary = kubectlBinary();
  const inherit = options.inherit === true;
  const result = spawnSync(binary, args, {
    cwd: options.cwd,
    input: options.input,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    stdio: [options.input === undefined ? 'ignore' : 'pipe', inherit ? 'inherit' : 'pipe', inherit ? 'inherit' : 'pipe'],
  });
  if (result.error) {
    if ((result.error as NodeJS.ErrnoException).code === 'ENOENT') {
      if (options.purpose) throw new UserError(`${binary} not found: ${options.purpose}`, undefined, 'install kubectl (it has kustomize built in), or set KUBECTL to its path');
      throw new UserError(`${binary} not found: install kubectl, or set KUBECTL to its path`);
    }
    throw result.error;
  }
  return { ok: result.status === 0, stdout: result.stdout ?? '', stderr: result.stderr ?? '' };
}

/** The first line of kubectl's output that says something. */
export function firstLine(text: string): string {
  return text.split('\n').find((line) => line.trim() !== '')?.trim() ?? '';
}

/** kubectl's error without its log prefix: `E1121 ... run.go:72] "command failed" err="..."` → the err text. */
export function kubectlError(stderr: string): string {
  const quoted = /err="((?:[^"\\]|\\.)*)"/.exec(stderr)?.[1];
  if (quoted !== undefined) return JSON.parse(`"${quoted}"`) as string;
  const lines = stderr.split('\n').map((l) => l.trim()).filter(Boolean);
  return (lines.at(-1) ?? 'no error message').replace(/^error: /, '');
}
