import { afterEach, describe, expect, it } from 'vitest';
import { startTestCluster, type TestCluster } from '../../src/testing/index.js';
import { starterPasses } from './starter.js';

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
