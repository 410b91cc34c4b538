import { cpSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cliVersion } from '../../src/version.js';
import { opgen } from '../scaffold/run.js';

// The seed examples as a 0.1.0 project has them (no cliVersion in PROJECT), upgraded by the
// real command: their history replays without a conflict and, since they follow today's
// scaffold, only PROJECT changes; their controllers, written by hand on the 0.1.0 starter that
// today's scaffold rewrote, stay theirs.

const examplesDir = fileURLToPath(new URL('../../examples/', import.meta.url));
const examples = readdirSync(examplesDir, { withFileTypes: true }).filter((e) => e.isDirectory() && existsSync(join(examplesDir, e.name, 'PROJECT')))
  .map((e) => e.name);
const chartBacked = (name: string) => readFileSync(join(examplesDir, name, 'PROJECT'), 'utf8').includes('helm-operator.opgen.dev/v1');

describe('opgen upgrade --dry-run of the examples as 0.1.0 projects', () => {
  it.each(examples.filter((name) => !chartBacked(name)))('%s: records the version and changes nothing else', async (name) => {
    const scratch = await mkdtemp(join(tmpdir(), 'opgen-upgrade-example-'));
    const dir = join(scratch, name);
    try {
      cpSync(join(examplesDir, name), dir, { recursive: true, filter: (source) => basename(source) !== 'node_modules' });
      const project = await readFile(join(dir, 'PROJECT'), 'utf8');
      expect(project).toContain(`cliVersion: ${cliVersion}\n`);
      await writeFile(join(dir, 'PROJECT'), project.replace(`cliVersion: ${cliVersion}\n`, ''));
      const result = await opgen(dir, 'upgrade', '--dry-run');
      expect(result.code, result.stderr).toBe(0);
      const plan = result.stdout.split('\n').filter((line) => /^[A-Z]+ +\S/.test(line));
      expect(plan.filter((line) => !/^SKIP +src\/controllers\/\w+_controller(\.test)?\.ts$/.test(line))).toEqual(['UPDATE   PROJECT']);
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  });

  it.each(examples.filter(chartBacked))('%s (chart-backed): refused with a located error, nothing written', async (name) => {
    const result = await opgen(join(examplesDir, name), 'upgrade', '--dry-run');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^PROJECT: error: opgen upgrade: this project is backed by Helm charts \(init --plugins helm-operator\) and is not re-scaffolded by this opgen yet; nothing was written \(upgrade it by hand/);
  });
});
