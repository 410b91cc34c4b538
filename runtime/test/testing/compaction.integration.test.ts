import { CoreV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startControlPlane, type ControlPlane } from '../../src/testing/index.js';
import { firstWatchEvent } from './helpers.js';

describe('compactEtcd', () => {
  let cp: ControlPlane;

  beforeAll(async () => {
    cp = await startControlPlane({ watchCache: false });
  });
  afterAll(() => cp?.stop());

  it('makes a watch from any resourceVersion seen before it fail with 410 Gone', async () => {
    const core = cp.kubeConfig.makeApiClient(CoreV1Api);
    const path = '/api/v1/namespaces/default/configmaps';
    const first = await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'first' } } });
    const second = await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'second' } } });
    const older = first.metadata?.resourceVersion as string;
    const latest = second.metadata?.resourceVersion as string;
    // Before the compaction the history is there: the watch replays what came after.
    expect(await firstWatchEvent(cp.kubeConfig, path, older)).toMatchObject({
      type: 'ADDED',
      object: { metadata: { name: 'second' } },
    });

    const revision = await cp.compactEtcd();

    expect(revision).toBeGreaterThan(Number(latest));
    for (const resourceVersion of [older, latest]) {
      expect(await firstWatchEvent(cp.kubeConfig, path, resourceVersion)).toMatchObject({
        type: 'ERROR',
        object: { code: 410, reason: 'Expired' },
      });
    }
    // The objects themselves are untouched, and a fresh list and watch work.
    const list = await core.listNamespacedConfigMap({ namespace: 'default' });
    expect(list.items.map((c) => c.metadata?.name)).toEqual(expect.arrayContaining(['first', 'second']));
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'third' } } });
    expect(await firstWatchEvent(cp.kubeConfig, path, list.metadata?.resourceVersion as string)).toMatchObject({
      type: 'ADDED',
      object: { metadata: { name: 'third' } },
    });
    // Compacting again is not an error.
    expect(await cp.compactEtcd()).toBeGreaterThan(revision);
  });
});
