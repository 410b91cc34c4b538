import { mkdir, mkdtemp, readdir, readFile, readlink, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, vi } from 'vitest';
import { main } from '../../src/cli.js';

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `opgen <args>` in-process in `cwd`, capturing what it prints. */
export async function opgen(cwd: string, ...args: string[]): Promise<RunResult> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout.push(String(chunk));
    return true;
  });
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr.push(String(chunk));
    return true;
  });
  const previous = process.cwd();
  process.chdir(cwd);
  try {
    const code = await main(['node', 'opgen', ...args]);
    return { code, stdout: stdout.join(''), stderr: stderr.join('') };
  } finally {
    process.chdir(previous);
    out.mockRestore();
    err.mockRestore();
  }
}

/** Runs `opgen <args>` in `cwd` and expects it to succeed without a word on stderr; returns its stdout. */
export async function opgenOk(cwd: string, ...args: string[]): Promise<string> {
  const result = await opgen(cwd, ...args);
  expect(result.stderr, `opgen ${args.join(' ')}`).toBe('');
  expect(result.code, `opgen ${args.join(' ')}`).toBe(0);
  return result.stdout;
}

/** Runs `opgen <args>` in `dir` and expects a refusal: exit 1, one line on stderr matching `message`, `dir` left as it was. */
export async function expectRefused(dir: string, args: string[], message: RegExp): Promise<void> {
  const before = await readTree(dir);
  const result = await opgen(dir, ...args);
  expect(result.code).toBe(1);
  expect(result.stderr.trimEnd()).toMatch(message);
  expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(await readTree(dir)).toEqual(before);
}

/** A fresh directory `<tmp>/<name>` (init names the project after it); remove it with `cleanUp`. */
export async function projectDir(name: string): Promise<string> {
  const parent = await mkdtemp(join(tmpdir(), 'opgen-scaffold-'));
  const dir = join(parent, name);
  await mkdir(dir);
  return dir;
}

export async function cleanUp(dir: string): Promise<void> {
  await rm(join(dir, '..'), { recursive: true, force: true });
}

/** Every file under `dir`, by path relative to it (with `/`), with its content (a link: its target). */
export async function readTree(dir: string, prefix = ''): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const entries = await readdir(join(dir, prefix), { withFileTypes: true });
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) for (const [p, c] of await readTree(dir, path)) files.set(p, c);
    else if (entry.isSymbolicLink()) files.set(path, `-> ${await readlink(join(dir, path))}`);
    else files.set(path, await readFile(join(dir, path), 'utf8'));
  }
  return files;
}
