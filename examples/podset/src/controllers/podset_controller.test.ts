/*
Copyright 2026.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

import { fileURLToPath } from 'node:url';
import { createManager, kinds, type Manager } from '@opgen/runtime';
import { createCache } from '@opgen/runtime/cache';
import { installCRDs, startControlPlane, type ControlPlane } from '@opgen/runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PodSet } from '../api/v1alpha1/podset_types.js';
import { setupPodSetController } from './podset_controller.js';

// A real API server and etcd with the project's CRDs (`npm run manifests` writes them to
// config/crd/bases), and a manager running this controller.
let controlPlane: ControlPlane | undefined;
let mgr: Manager | undefined;
let running: Promise<void> | undefined;

beforeAll(async () => {
  controlPlane = await startControlPlane();
  // Found from this file, so the test runs from any working directory (an editor, a monorepo).
  await installCRDs(controlPlane.kubeConfig, fileURLToPath(new URL('../../config/crd/bases', import.meta.url)));
  // Read-your-writes off: the Pod expectations alone must keep a burst of reconciles from
  // acting on a cache that does not show their own creations yet.
  mgr = createManager({ kubeConfig: controlPlane.kubeConfig, handleSignals: false, logLevel: 'warn', readYourWritesMs: 0 });
  setupPodSetController(mgr);
  running = mgr.start();
  await mgr.elected();
});

afterAll(async () => {
  mgr?.stop();
  await running;
  await controlPlane?.stop();
});

describe('PodSet controller', () => {
  it('creates replicas Pods, owned by the PodSet, and lists them in the status', async () => {
    const client = mgr!.client.uncached();
    const podSet = await client.create(PodSet, { metadata: { name: 'web', namespace: 'default' }, spec: { replicas: 2 } });

    await expect.poll(async () => (await client.get(PodSet, 'web', 'default'))?.status?.podNames?.length, { timeout: 30_000 }).toBe(2);
    const pods = await client.list(kinds.Pod, { namespace: 'default', labels: { app: 'web' } });
    expect(pods.map((pod) => pod.metadata?.name).sort()).toEqual((await client.get(PodSet, 'web', 'default'))?.status?.podNames);
    for (const pod of pods) {
      expect(pod.metadata?.ownerReferences).toEqual([expect.objectContaining({ kind: 'PodSet', uid: podSet.metadata?.uid, controller: true })]);
      expect(pod.spec?.containers).toEqual([expect.objectContaining({ image: 'busybox', command: ['sleep', '3600'] })]);
    }
  });

  it('deletes Pods down to zero replicas', async () => {
    const client = mgr!.client.uncached();
    const podSet = await client.get(PodSet, 'web', 'default');
    await client.patch(PodSet, podSet!, { spec: { replicas: 0 } });

    await expect.poll(async () => (await client.list(kinds.Pod, { namespace: 'default', labels: { app: 'web' } })).length, { timeout: 30_000 }).toBe(0);
    await expect.poll(async () => (await client.get(PodSet, 'web', 'default'))?.status?.podNames, { timeout: 30_000 }).toEqual([]);
  });

  it('never runs more Pods than replicas while quick scale-ups and Pod events reconcile it in bursts', async () => {
    const client = mgr!.client.uncached();
    // A cache of its own watches the PodSet's Pods and keeps the most ever alive at once.
    const watching = new AbortController();
    const observer = createCache(controlPlane!.kubeConfig, { namespace: 'default' });
    const pods = observer.informerFor(kinds.Pod);
    let most = 0;
    const count = () => {
      const alive = pods.list({ labels: { app: 'burst' } }).filter((pod) => !pod.metadata?.deletionTimestamp).length;
      most = Math.max(most, alive);
    };
    pods.addHandler({ add: count, update: count });
    observer.start(watching.signal);
    try {
      expect(await observer.waitForSync(30_000)).toBe(true);
      // Each scale-up lands while the Pods of the previous one are being created and their
      // events reconcile the PodSet again, while the manager's cache lags those creations
      // by a few milliseconds. Without expectations this over-creates in most runs.
      await client.create(PodSet, { metadata: { name: 'burst', namespace: 'default' }, spec: { replicas: 1 } });
      for (let replicas = 2; replicas <= 40; replicas += 2) {
        await client.patch(PodSet, { metadata: { name: 'burst', namespace: 'default' } }, { spec: { replicas } });
      }
      await expect.poll(async () => (await client.get(PodSet, 'burst', 'default'))?.status?.podNames?.length, { timeout: 30_000 }).toBe(40);
      expect((await client.list(kinds.Pod, { namespace: 'default', labels: { app: 'burst' } })).length).toBe(40);
      expect(most).toBe(40);
    } finally {
      watching.abort();
    }
  });
});
