import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { readTree } from '../scaffold/run.js';

// `opgen init` when its `npm install` cannot reach the registry (offline, a registry down):
// the scaffold is whole, the exit code says it failed, and the last line is the command
// that finishes the job. The real CLI and the real npm, against a loopback port nobody serves.

const cli = fileURLToPath(new URL('../../bin/opgen.js', import.meta.url));

/** A loopback port that nothing listens on: the kernel's pick, closed again. */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen({ port: 0, host: '127.0.0.1' }, () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe('opgen init with an unreachable registry', () => {
  let work: string | undefined;
  afterEach(async () => {
    if (work) await rm(work, { recursive: true, force: true });
    work = undefined;
  });

  it('exits 1 with the npm install command to run later, and the scaffold complete', async () => {
    // A space in the path: the printed command must still be one to paste.
    work = await mkdtemp(join(tmpdir(), 'opgen offline-'));
    const offline = join(work, 'a', 'widget-operator');
    const reference = join(work, 'b', 'widget-operator');
    await mkdir(offline, { recursive: true });
    await mkdir(reference, { recursive: true });
    const npmVariables = /^npm_/i;
    const env = {
      ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !npmVariables.test(name))),
      npm_config_registry: `http://127.0.0.1:${await closedPort()}/`,
      npm_config_fetch_retries: '0',
      npm_config_cache: join(work, 'npm-cache'),
      npm_config_userconfig: join(work, 'npmrc'),
      NO_COLOR: '1',
    };
    const init = (cwd: string, ...extra: string[]) =>
      execa(process.execPath, [cli, 'init', '--domain', 'example.com', ...extra], { cwd, env, extendEnv: false, reject: false });

    const result = await init(offline);
    expect(result.exitCode).toBe(1);
    const lastLine = result.stderr.trimEnd().split('\n').at(-1);
    expect(lastLine).toMatch(/^error: npm install failed \(exit code \d+\); the project is written in full \(once the registry can be reached, run: (.*)\)$/);
    expect(lastLine).toContain(`run: cd '${offline}' && npm install)`);

    expect((await init(reference, '--skip-install')).exitCode).toBe(0);
    const written = await readTree(offline);
    for (const path of [...written.keys()].filter((p) => p.startsWith('node_modules/') || p === 'package-lock.json')) written.delete(path);
    expect(written).toEqual(await readTree(reference));
  }, 120_000);
});
