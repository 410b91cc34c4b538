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
import { installCRDs, startControlPlane, type ControlPlane } from '@opgen/runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DemoVolume } from '../api/v1/demovolume_types.js';
import { setupDemoVolumeController } from './demovolume_controller.js';

// A real API server and etcd with the project's CRDs (`npm run manifests` writes them to
// config/crd/bases), and a manager running this controller.
let controlPlane: ControlPlane | undefined;
let mgr: Manager | undefined;
let running: Promise<void> | undefined;

beforeAll(async () => {
  controlPlane = await startControlPlane();
  // Found from this file, so the test runs from any working directory (an editor, a monorepo).
  await installCRDs(controlPlane.kubeConfig, fileURLToPath(new URL('../../config/crd/bases', import.meta.url)));
  mgr = createManager({ kubeConfig: controlPlane.kubeConfig, handleSignals: false, logLevel: 'warn' });
  setupDemoVolumeController(mgr);
  running = mgr.start();
  await mgr.elected();
});

afterAll(async () => {
  mgr?.stop();
  await running;
  await controlPlane?.stop();
});

describe('DemoVolume controller', () => {
  it('creates an owned claim of the requested size and reports spec.name', async () => {
    const client = mgr!.client.uncached();
    const volume = await client.create(DemoVolume, { metadata: { name: 'data', namespace: 'default' }, spec: { name: 'data-volume', size: 3 } });

    await expect.poll(async () => (await client.get(DemoVolume, 'data', 'default'))?.status?.name, { timeout: 30_000 }).toBe('data-volume');
    const claim = await client.get(kinds.PersistentVolumeClaim, 'data', 'default');
    expect(claim?.spec?.resources?.requests).toEqual({ storage: '3Gi' });
    expect(claim?.metadata?.ownerReferences).toEqual([expect.objectContaining({ kind: 'DemoVolume', uid: volume.metadata?.uid, controller: true })]);
  });

  it('leaves a claim it does not own alone', async () => {
    const client = mgr!.client.uncached();
    const spec = { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '5Gi' } } };
    await client.create(kinds.PersistentVolumeClaim, { metadata: { name: 'taken', namespace: 'default' }, spec });
    await client.create(DemoVolume, { metadata: { name: 'taken', namespace: 'default' }, spec: { name: 'taken', size: 1 } });

    await expect.poll(async () => (await client.get(DemoVolume, 'taken', 'default'))?.status?.name, { timeout: 30_000 }).toBe('taken');
    const claim = await client.get(kinds.PersistentVolumeClaim, 'taken', 'default');
    expect(claim?.spec?.resources?.requests).toEqual({ storage: '5Gi' });
    expect(claim?.metadata?.ownerReferences).toBeUndefined();
  });
});
