import { existsSync } from 'node:fs';
import { cp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { parse } from 'yaml';
import { cleanUp, projectDir, readTree } from '../scaffold/run.js';
import { opgenOk, scaffoldDemoVolume } from './project.js';

// The golden charts in test/fixtures/helm are what `opgen edit --plugins helm` must write
// for the scaffolded projects, byte for byte. After an intended change to the chart (or to
// the scaffold it is built from), regenerate them with
//   UPDATE_GOLDEN=1 npx vitest run test/helm/chart.test.ts
// and review the diff.
const fixtures = fileURLToPath(new URL('../fixtures/helm/', import.meta.url));

let dir: string;
beforeEach(() => {
  vi.stubEnv('SOURCE_DATE_EPOCH', '1767225600');
});
afterEach(async () => {
  vi.unstubAllEnvs();
  if (dir) await cleanUp(dir);
});

async function expectGoldenChart(name: string): Promise<void> {
  const chart = join(dir, 'dist/chart');
  const golden = `${fixtures}${name}`;
  if (process.env.UPDATE_GOLDEN) {
    await rm(golden, { recursive: true, force: true });
    await cp(chart, golden, { recursive: true });
  }
  const actual = await readTree(chart);
  const expected = await readTree(golden);
  expect([...actual.keys()]).toEqual([...expected.keys()]);
  for (const [path, content] of expected) expect(actual.get(path), path).toBe(content);
}

const chartFile = (path: string) => readFile(join(dir, 'dist/chart', path), 'utf8');

describe('opgen edit --plugins helm', () => {
  it('writes the chart of the Civo tutorial\'s DemoVolume project', async () => {
    dir = await projectDir('demo-volume-operator');
    await scaffoldDemoVolume(dir);
    const out = await opgenOk(dir, 'edit', '--plugins', 'helm');
    expect(out).toContain('CREATE dist/chart/templates/manager/manager.yaml');
    expect(out).toContain('helm install demo-volume-operator dist/chart --namespace demo-volume-operator-system --create-namespace');
    await expectGoldenChart('demo-volume-operator');
  });

  it('writes the chart of an operator that watches one namespace: its Role lands in the release namespace', async () => {
    dir = await projectDir('shop-operator');
    await opgenOk(dir, 'init', '--domain', 'example.com', '--namespaced', '--skip-install');
    await opgenOk(dir, 'create', 'api', '--group', 'blog', '--version', 'v1alpha1', '--kind', 'BookStore');
    await opgenOk(dir, 'manifests');
    await opgenOk(dir, 'edit', '--plugins', 'helm');
    await expectGoldenChart('shop-operator');
  });

  it('records the plugin in PROJECT once, keeping the rest of the file', async () => {
    dir = await projectDir('demo-volume-operator');
    await scaffoldDemoVolume(dir);
    const before = parse(await readFile(join(dir, 'PROJECT'), 'utf8')) as Record<string, unknown>;
    await opgenOk(dir, 'edit', '--plugins', 'helm');
    await opgenOk(dir, 'edit', '--plugins', 'helm');
    const after = parse(await readFile(join(dir, 'PROJECT'), 'utf8')) as Record<string, unknown>;
    expect(after).toEqual({ ...before, plugins: { 'helm.opgen.dev/v1-alpha': {} } });
    // create api still reads the project, and keeps the plugin when it adds a kind.
    await opgenOk(dir, 'create', 'api', '--group', 'storage', '--version', 'v1', '--kind', 'Snapshot');
    expect(parse(await readFile(join(dir, 'PROJECT'), 'utf8'))).toMatchObject({ plugins: { 'helm.opgen.dev/v1-alpha': {} } });
  });

  it('on a re-run follows config/ in the templates and keeps the user\'s Chart.yaml and values.yaml', async () => {
    dir = await projectDir('demo-volume-operator');
    await scaffoldDemoVolume(dir);
    await opgenOk(dir, 'edit', '--plugins', 'helm');

    const values = (await chartFile('values.yaml')).replace('replicaCount: 1', 'replicaCount: 3');
    const chart = (await chartFile('Chart.yaml')).replace('version: 0.1.0', 'version: 1.4.2');
    await writeFile(join(dir, 'dist/chart/values.yaml'), values);
    await writeFile(join(dir, 'dist/chart/Chart.yaml'), chart);
    // The user changes the manager in config/: the chart's Deployment must follow.
    const managerPath = join(dir, 'config/manager/manager.yaml');
    await writeFile(managerPath, (await readFile(managerPath, 'utf8')).replace('terminationGracePeriodSeconds: 40', 'terminationGracePeriodSeconds: 55'));

    const out = await opgenOk(dir, 'edit', '--plugins', 'helm');
    expect(out.split('\n')).toEqual(
      expect.arrayContaining(['SKIP   dist/chart/Chart.yaml', 'SKIP   dist/chart/values.yaml', 'UPDATE dist/chart/templates/manager/manager.yaml']),
    );
    expect(out).not.toContain('templates/rbac');
    expect(await chartFile('values.yaml')).toBe(values);
    expect(await chartFile('Chart.yaml')).toBe(chart);
    expect(await chartFile('templates/manager/manager.yaml')).toContain('terminationGracePeriodSeconds: 55');

    // --force starts both over from config/.
    const forced = await opgenOk(dir, 'edit', '--plugins', 'helm', '--force');
    expect(forced).toContain('UPDATE dist/chart/values.yaml');
    expect(await chartFile('values.yaml')).toContain('replicaCount: 1\n');
    expect(await chartFile('Chart.yaml')).toContain('version: 0.1.0\n');
  });

  it('with --dry-run prints the plan and writes nothing', async () => {
    dir = await projectDir('demo-volume-operator');
    await scaffoldDemoVolume(dir);
    const project = await readFile(join(dir, 'PROJECT'), 'utf8');
    const out = await opgenOk(dir, 'edit', '--plugins', 'helm', '--dry-run');
    expect(out).toContain('CREATE dist/chart/values.yaml');
    expect(out).toContain('(dry run: nothing was written)');
    expect(existsSync(join(dir, 'dist/chart'))).toBe(false);
    expect(await readFile(join(dir, 'PROJECT'), 'utf8')).toBe(project);
  });
});
