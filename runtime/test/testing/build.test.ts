import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildProject } from '../../src/testing/index.js';

describe('buildProject', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'opgen-build-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const project = (scripts: Record<string, string>): void =>
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'p', private: true, scripts }));

  it('runs the project\'s npm build script in its dir, or another script when named', async () => {
    project({ build: 'node -e "require(\'fs\').writeFileSync(\'built\', \'\')"', compile: 'node -e "require(\'fs\').writeFileSync(\'compiled\', \'\')"' });

    await buildProject(dir);
    expect(existsSync(join(dir, 'built'))).toBe(true);
    await buildProject(dir, 'compile');
    expect(existsSync(join(dir, 'compiled'))).toBe(true);
  });

  it('rejects with what the build printed when it fails', async () => {
    project({ build: 'node -e "console.log(\'src/main.ts(3,7): error TS2322: nope\'); process.exit(2)"' });

    const failure = buildProject(dir);
    await expect(failure).rejects.toThrow(`npm run build in ${dir} failed (exit 2):`);
    await expect(failure).rejects.toThrow('src/main.ts(3,7): error TS2322: nope');
  });
});
