import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestCluster, type TestCluster } from '../../src/testing/index.js';
import { starterPasses } from './starter.js';
import { widgetCRD } from './support.js';

const CERTIFICATES = new URL('../../../test/fixtures/corpus/cert-manager/cert-manager.io_certificates.yaml', import.meta.url).pathname;

let test: TestCluster | undefined;
afterEach(async () => {
  await test?.stop();
  test = undefined;
});

describe('startTestCluster', () => {
  it('runs the starter controller on the memory cluster: child and status are there when runUntilIdle returns', async () => {
    const began = performance.now();
    const cluster = await starterPasses('memory');
    expect(cluster.tier).toBe('memory');
    // The condition is stamped on the cluster's fake clock, as the server's timestamps are.
    const stored = await cluster.cluster.transport.request<{ metadata: { creationTimestamp: string }; status: { conditions: Array<{ lastTransitionTime: string }> } }>({
      method: 'GET',
      path: '/apis/bench.opgen.dev/v1/namespaces/default/gadgets/g',
    });
    const fakeNow = cluster.clock.wall().toISOString().replace(/\.\d+Z$/, 'Z');
    expect(stored.metadata.creationTimestamp).toBe(fakeNow);
    expect(stored.status.conditions[0]?.lastTransitionTime).toBe(fakeNow);
    expect(cluster.kubeConfig).toBeUndefined();
    // No process started, no port opened: the whole test is in-process.
    expect(performance.now() - began).toBeLessThan(5_000);
  });

  it('takes its tier from OPGEN_TEST_TIER and refuses one it does not know', async () => {
    const before = process.env.OPGEN_TEST_TIER;
    try {
      process.env.OPGEN_TEST_TIER = 'kind';
      await expect(startTestCluster()).rejects.toThrow('OPGEN_TEST_TIER=kind: expected memory or controlplane');
      process.env.OPGEN_TEST_TIER = 'memory';
      test = await startTestCluster();
      expect(test.tier).toBe('memory');
    } finally {
      if (before === undefined) delete process.env.OPGEN_TEST_TIER;
      else process.env.OPGEN_TEST_TIER = before;
    }
  });
});

describe('startTestCluster with a project\'s config/crd/bases', () => {
  it('installs the CRDs opgen import crd keeps in config/crd/external beside it', async () => {
    const project = await mkdtemp(join(tmpdir(), 'opgen-tier-'));
    try {
      await mkdir(join(project, 'config/crd/bases'), { recursive: true });
      await mkdir(join(project, 'config/crd/external'), { recursive: true });
      await writeFile(join(project, 'config/crd/bases/widgets.yaml'), JSON.stringify(widgetCRD()));
      await copyFile(CERTIFICATES, join(project, 'config/crd/external/certificates.cert-manager.io.yaml'));
      test = await startTestCluster({ tier: 'memory', crds: join(project, 'config/crd/bases') });
      const served = async (path: string) => (await test!.cluster.transport.request<{ resources: { name: string }[] }>({ method: 'GET', path })).resources.map((r) => r.name);
      expect(await served('/apis/example.com/v1')).toContain('widgets');
      expect(await served('/apis/cert-manager.io/v1')).toContain('certificates');
    } finally {
      await rm(project, { recursive: true, force: true });
    }
  });
});
