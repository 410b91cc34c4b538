import { cp, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanUp, opgen, projectDir, readTree } from './run.js';

// The golden trees in test/fixtures/scaffold are what these invocations must write, byte
// for byte. After an intended change to the scaffold, regenerate them with
//   UPDATE_GOLDEN=1 npx vitest run test/scaffold/golden.test.ts
// and review the diff.
const fixtures = fileURLToPath(new URL('../fixtures/scaffold/', import.meta.url));

let dir: string;
beforeEach(() => {
  // The license header's year, fixed the reproducible-builds way.
  vi.stubEnv('SOURCE_DATE_EPOCH', '1767225600');
});
afterEach(async () => {
  vi.unstubAllEnvs();
  if (dir) await cleanUp(dir);
});

async function expectGolden(name: string): Promise<void> {
  const golden = `${fixtures}${name}`;
  if (process.env.UPDATE_GOLDEN) {
    await rm(golden, { recursive: true, force: true });
    await cp(dir, golden, { recursive: true });
  }
  const actual = await readTree(dir);
  const expected = await readTree(golden);
  expect([...actual.keys()]).toEqual([...expected.keys()]);
  for (const [path, content] of expected) expect(actual.get(path), path).toBe(content);
}

async function run(...args: string[]): Promise<void> {
  const result = await opgen(dir, ...args);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
}

describe('the scaffold', () => {
  it('of the Civo tutorial: init --domain civo.com, create api storage/v1 DemoVolume', async () => {
    dir = await projectDir('demo-volume-operator');
    await run('init', '--domain', 'civo.com', '--project-name', 'demo-volume-operator', '--skip-install');
    await run('create', 'api', '--group', 'storage', '--version', 'v1', '--kind', 'DemoVolume');
    await expectGolden('civo');
  });

  it('of a multigroup project: two groups, two versions of one kind, a cluster-scoped kind with its own plural', async () => {
    dir = await projectDir('fleet-operator');
    await run('init', '--domain', 'example.com', '--multigroup', '--license', 'none', '--skip-install');
    await run('create', 'api', '--group', 'ship', '--version', 'v1', '--kind', 'Frigate');
    await run('create', 'api', '--group', 'ship', '--version', 'v2beta1', '--kind', 'Frigate', '--no-controller');
    await run('create', 'api', '--group', 'sea', '--version', 'v1alpha1', '--kind', 'Harbor', '--plural', 'harbours', '--namespaced=false');
    await expectGolden('multigroup');
  });

  it('of an operator that watches one namespace', async () => {
    dir = await projectDir('shop-operator');
    await run('init', '--domain', 'example.com', '--namespaced', '--owner', 'The Shop Authors', '--skip-install');
    await run('create', 'api', '--group', 'blog', '--version', 'v1alpha1', '--kind', 'BookStore');
    await expectGolden('namespaced');
  });

  it('of webhooks: defaulting, validation and conversion of a kind in two versions, and a defaulting webhook for Pods', async () => {
    dir = await projectDir('shop-operator');
    await run('init', '--domain', 'example.com', '--skip-install');
    await run('create', 'api', '--group', 'shop', '--version', 'v1', '--kind', 'Widget');
    await run('create', 'api', '--group', 'shop', '--version', 'v2', '--kind', 'Widget', '--no-controller');
    await run('create', 'webhook', '--group', 'shop', '--version', 'v2', '--kind', 'Widget', '--defaulting', '--programmatic-validation', '--conversion', '--spoke', 'v1');
    await run('create', 'webhook', '--group', 'core', '--version', 'v1', '--kind', 'Pod', '--defaulting');
    await expectGolden('webhooks');
  });

  it('of an operator of many clusters: init --multicluster, a namespaced and a cluster-scoped kind', async () => {
    dir = await projectDir('fleet-operator');
    await run('init', '--domain', 'example.com', '--multicluster', '--license', 'none', '--skip-install');
    await run('create', 'api', '--group', 'shop', '--version', 'v1', '--kind', 'Widget');
    await run('create', 'api', '--group', 'shop', '--version', 'v1', '--kind', 'Gadget', '--namespaced=false');
    await expectGolden('multicluster');
  });

  it('with Grafana dashboards: edit --plugins grafana, then again after listing custom metrics', async () => {
    dir = await projectDir('bookstore-operator');
    await run('init', '--domain', 'example.com', '--license', 'none', '--skip-install');
    await run('edit', '--plugins', 'grafana');
    // The user lists their own metrics in the config the first run wrote; the second run adds their dashboard.
    await writeFile(
      `${dir}/grafana/custom-metrics/config.yaml`,
      [
        'customMetrics:',
        '  - metric: bookstore_books_sold_total',
        '    type: counter',
        '  - metric: bookstore_restock_duration_seconds_bucket',
        '    type: Histogram',
        '    unit: s',
        '  - metric: bookstore_books_in_stock',
        '    type: gauge',
        '  - expr: sum(bookstore_books_in_stock{job=~"$job"}) - sum(bookstore_books_reserved{job=~"$job"})',
        '    unit: short',
        '',
      ].join('\n'),
    );
    await run('edit', '--plugins', 'grafana');
    await expectGolden('grafana');
  });
});
