import { cpSync, existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { copyFixture, fixtures, opgen } from './run.js';

// Golden outputs: test/fixtures/manifests/<name>/input is a project, expected/ holds every
// file `opgen manifests` must write into it. UPDATE_GOLDEN=1 rewrites expected/ from the
// current output; review the diff by eye before committing it.
const names = readdirSync(fixtures).filter((n) => existsSync(join(fixtures, n, 'expected')) || process.env.UPDATE_GOLDEN);

function listFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}

describe('opgen manifests golden files', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it.each(names)('%s', async (name) => {
    const dir = copyFixture(name);
    dirs.push(dir);
    const before = new Set(listFiles(dir));
    const run = await opgen('manifests', '--dir', dir);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const written = listFiles(dir).filter((f) => !before.has(f));
    const expectedDir = join(fixtures, name, 'expected');
    if (process.env.UPDATE_GOLDEN) {
      rmSync(expectedDir, { recursive: true, force: true });
      for (const file of written) cpSync(join(dir, file), join(expectedDir, file));
    }
    expect(written).toEqual(listFiles(expectedDir));
    for (const file of written) expect(readFileSync(join(dir, file), 'utf8'), file).toBe(readFileSync(join(expectedDir, file), 'utf8'));
    expect(run.stdout.trim().split('\n')).toEqual(written.map((f) => `CREATE ${f}`));
  });
});
