import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { eventually } from '../fixtures/eventually.js';
import { isAlive } from './helpers.js';

const register = fileURLToPath(new URL('../fixtures/ts-register.mjs', import.meta.url));
const host = fileURLToPath(new URL('./fixtures/host.ts', import.meta.url));

/** Starts a process that holds a control plane and returns it with what it started. */
async function startHost(...args: string[]) {
  const child = spawn(process.execPath, ['--import', register, host, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  const [line] = (await once(createInterface(child.stdout), 'line')) as [string];
  const started = JSON.parse(line) as { dir: string; pids: number[] };
  expect(started.pids.every(isAlive)).toBe(true);
  expect(existsSync(started.dir)).toBe(true);
  return { child, exited, ...started };
}

// Each test starts a second Node process that compiles the harness and starts a control
// plane: slower than the default test timeout allows on a loaded two-core machine.
const HOST_TIMEOUT_MS = 90_000;

describe('a process that dies without stopping its control plane', () => {
  it('takes the control plane with it on SIGTERM, and still dies of SIGTERM', async () => {
    const { child, exited, dir, pids } = await startHost();

    child.kill('SIGTERM');

    const [, signal] = await exited;
    expect(signal).toBe('SIGTERM');
    // Killed processes take a moment to be torn down by the kernel.
    await eventually('every control plane process to end', () => pids.filter(isAlive).length === 0, 5000);
    expect(existsSync(dir)).toBe(false);
  }, HOST_TIMEOUT_MS);

  it('leaves nothing behind even when killed with SIGKILL', async () => {
    const { child, exited, dir, pids } = await startHost('--controller-manager');
    expect(pids).toHaveLength(3);

    child.kill('SIGKILL');
    await exited;

    await eventually('every control plane process to end', () => pids.filter(isAlive).length === 0, 10_000);
    await eventually('the temp dir to be removed', () => !existsSync(dir), 10_000);
  }, HOST_TIMEOUT_MS);
});
