import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFixture } from './run.js';

// The built CLI remembers which rules parsed and which schemas' CEL rules passed
// (src/validation/remembered.ts): a run after an edit must still refuse a rule made wrong,
// every time, and accept it once fixed.
// Needs `npm run build` first (npm test runs it).

const bin = fileURLToPath(new URL('../../bin/opgen.js', import.meta.url));
const exec = promisify(execFile);
const scratch: string[] = [];
let project: string;
let cacheRoot: string;
const types = () => join(project, 'src/api/v1/gadget_types.ts');
const good = 'self.softCap >= self.floor';

beforeAll(() => {
  if (!existsSync(fileURLToPath(new URL('../../dist/opgen/cli.cjs', import.meta.url)))) throw new Error('run npm run build first');
  project = copyFixture('everything');
  cacheRoot = mkdtempSync(join(tmpdir(), 'opgen-cel-checked-'));
  scratch.push(project, cacheRoot);
});
afterAll(() => scratch.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

async function manifests(): Promise<{ code: number; stderr: string }> {
  try {
    const { stderr } = await exec('node', [bin, 'manifests', '--dir', project], { env: { ...process.env, OPGEN_CACHE_DIR: cacheRoot } });
    return { code: 0, stderr };
  } catch (error) {
    const failed = error as { code: number; stderr: string };
    return { code: failed.code, stderr: failed.stderr };
  }
}

function setRule(rule: string): void {
  const text = readFileSync(types(), 'utf8');
  writeFileSync(types(), text.replace(/XValidation:rule="[^"]*",message="softCap must not be below floor"/, `XValidation:rule="${rule}",message="softCap must not be below floor"`));
}

/** The schemas noted as passing the type check. */
const notes = () => readdirSync(join(cacheRoot, 'checked')).flatMap((build) => readdirSync(join(cacheRoot, 'checked', build))).filter((n) => n.startsWith('cel-types-'));

describe('CEL checks remembered by the built CLI', () => {
  it('notes the schemas whose rules passed', async () => {
    setRule(good);
    expect(await manifests()).toEqual({ code: 0, stderr: '' });
    expect(notes().length).toBeGreaterThan(0);
  });

  it('refuses a rule edited into a wrong one, on every run', async () => {
    const before = notes().length;
    setRule("self.softCap >= 'high'");
    for (let run = 0; run < 2; run++) {
      const { code, stderr } = await manifests();
      expect(code).toBe(1);
      expect(stderr).toMatch(/gadget_types\.ts:\d+:\d+: error: .*invalid CEL rule "self\.softCap >= 'high'"/);
    }
    expect(notes().length).toBe(before);
  });

  it('refuses a rule edited into one that does not parse, on every run', async () => {
    setRule('self.softCap >= ');
    for (let run = 0; run < 2; run++) {
      const { code, stderr } = await manifests();
      expect(code).toBe(1);
      expect(stderr).toMatch(/gadget_types\.ts:\d+:\d+: error: invalid CEL rule: /);
    }
  });

  it('accepts it again once fixed', async () => {
    setRule(good);
    expect(await manifests()).toEqual({ code: 0, stderr: '' });
  });
});
