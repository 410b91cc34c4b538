import { describe, expect, it } from 'vitest';
import { starterPasses } from './starter.js';

describe('startTestCluster on the real control plane', () => {
  it('runs the same starter test against etcd and kube-apiserver, waiting on real time', async () => {
    const cluster = await starterPasses('controlplane');
    expect(cluster.tier).toBe('controlplane');
    expect(cluster.kubeConfig).toBeDefined();
  });
});
