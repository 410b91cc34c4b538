import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { vi } from 'vitest';
import { main } from '../../src/cli.js';

export const fixtures = fileURLToPath(new URL('../fixtures/manifests/', import.meta.url));

/** A fresh copy of fixture `name`'s input project in a temp dir. */
export function copyFixture(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `opgen-${name}-`));
  cpSync(join(fixtures, name, 'input'), dir, { recursive: true });
  return dir;
}

/** Runs the CLI with `args`, returning its exit code and what it printed. */
export async function opgen(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    stdout += String(chunk);
    return true;
  });
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    stderr += String(chunk);
    return true;
  });
  try {
    const code = await main(['node', 'opgen', ...args]);
    return { code, stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
    process.exitCode = undefined;
  }
}
