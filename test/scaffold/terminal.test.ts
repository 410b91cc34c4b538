import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The built binary, as a user runs it: in a terminal (a pseudo-terminal from script(1)) and
// through a pipe. Needs `npm run build` first (npm test runs it).

const bin = fileURLToPath(new URL('../../bin/opgen.js', import.meta.url));
const run = promisify(execFile);
const escape = '\u001b[';
let dir: string;

beforeAll(async () => {
  if (!existsSync(fileURLToPath(new URL('../../dist/cli.js', import.meta.url)))) throw new Error('run npm run build first');
  dir = await mkdtemp(join(tmpdir(), 'opgen-terminal-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs `opgen <args>` on a terminal; script(1) puts stdout and stderr on it and returns what appeared. */
async function inTerminal(args: string, env: NodeJS.ProcessEnv = {}): Promise<string> {
  const { NO_COLOR: _, ...inherited } = process.env;
  const command = `node ${bin} ${args}; echo "exit=$?"`;
  const { stdout } = await run('script', ['-qec', command, '/dev/null'], { cwd: dir, env: { ...inherited, ...env } });
  return stdout;
}

describe('opgen on a terminal', () => {
  it('colours the error of a bad flag, and writes nothing', async () => {
    const out = await inTerminal('init --domian civo.com');
    expect(out).toContain(`${escape}31merror:`);
    expect(out).toContain('exit=1');
    expect(await readdir(dir)).toEqual([]);
  });

  it('never colours with NO_COLOR', async () => {
    const out = await inTerminal('init --domian civo.com', { NO_COLOR: '1' });
    expect(out).toContain('error: unknown option');
    expect(out).not.toContain(escape);
  });

  it('never colours through a pipe', async () => {
    const { NO_COLOR: _, ...env } = process.env;
    const failed = await run('node', [bin, 'init', '--domian', 'civo.com'], { cwd: dir, env }).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toMatch(/^error: unknown option '--domian'/);
    expect(failed?.stderr).not.toContain(escape);
  });

  it('prints its version', async () => {
    const { stdout } = await run('node', [bin, 'version']);
    expect(stdout).toMatch(/^opgen \d+\.\d+\.\d+ \(node v?\d+\.\d+\.\d+\)\n$/);
  });
});
