import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readlinkSync } from 'node:fs';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { eventually } from '../fixtures/eventually.js';
import { isAlive } from './helpers.js';

const register = fileURLToPath(new URL('../fixtures/ts-register.mjs', import.meta.url));
const host = fileURLToPath(new URL('./fixtures/operator-host.ts', import.meta.url));

/** Starts a process that starts an operator; returns it with the operator's pid and temp dir. */
async function startHost() {
  const child = spawn(process.execPath, ['--import', register, host], { stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  const [line] = (await once(createInterface(child.stdout), 'line')) as [string];
  const { pid } = JSON.parse(line) as { pid: number };
  // The operator writes its output into a file in its temp dir.
  const dir = dirname(readlinkSync(`/proc/${pid}/fd/1`));
  expect(isAlive(pid)).toBe(true);
  expect(existsSync(dir)).toBe(true);
  return { child, exited, pid, dir };
}

async function expectGone(pid: number, dir: string): Promise<void> {
  await eventually('the operator to end', () => !isAlive(pid), 10_000);
  await eventually('its temp dir to be removed', () => !existsSync(dir), 10_000);
}

// Each test starts a second Node process that compiles the harness: slower than the default
// test timeout allows on a loaded two-core machine.
const HOST_TIMEOUT_MS = 90_000;

describe('an operator whose test process ends without stopping it', () => {
  it('is killed when the test process exits', async () => {
    const { child, exited, pid, dir } = await startHost();

    child.stdin.end('exit\n');

    expect(await exited).toEqual([0, null]);
    await expectGone(pid, dir);
  }, HOST_TIMEOUT_MS);

  it('is killed when the test process gets SIGTERM, which still ends it', async () => {
    const { child, exited, pid, dir } = await startHost();

    child.kill('SIGTERM');

    expect(await exited).toEqual([null, 'SIGTERM']);
    await expectGone(pid, dir);
  }, HOST_TIMEOUT_MS);

  it('is killed even when the test process is killed with SIGKILL', async () => {
    const { child, exited, pid, dir } = await startHost();

    child.kill('SIGKILL');
    await exited;

    await expectGone(pid, dir);
  }, HOST_TIMEOUT_MS);
});
