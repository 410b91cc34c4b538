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
import { BookStore } from '../api/v1alpha1/bookstore_types.js';
import { setupBookStoreController } from './bookstore_controller.js';

// A real API server and etcd with the project's CRDs (`npm run manifests` writes them to
// config/crd/bases), and a manager running this controller. Without kube-controller-manager
// no claims are made for the StatefulSet: test/e2e/operator.test.ts covers volume expansion.
let controlPlane: ControlPlane | undefined;
let mgr: Manager | undefined;
let running: Promise<void> | undefined;

beforeAll(async () => {
  controlPlane = await startControlPlane();
  // Found from this file, so the test runs from any working directory (an editor, a monorepo).
  await installCRDs(controlPlane.kubeConfig, fileURLToPath(new URL('../../config/crd/bases', import.meta.url)));
  mgr = createManager({ kubeConfig: controlPlane.kubeConfig, handleSignals: false, logLevel: 'warn' });
  setupBookStoreController(mgr);
  running = mgr.start();
  await mgr.elected();
});

afterAll(async () => {
  mgr?.stop();
  await running;
  await controlPlane?.stop();
});

describe('BookStore controller', () => {
  it('applies the app and database objects, with the defaults the CRD fills in', async () => {
    const client = mgr!.client.uncached();
    await client.create(BookStore, {
      metadata: { name: 'store', namespace: 'default' },
      spec: { bookApp: { repository: 'akash125/pyapp', tag: 'latest' }, bookDB: { repository: 'mongo', tag: '7.0', dbSize: '2Gi' } },
    });

    const applied = async () => {
      const deployment = await client.get(kinds.Deployment, 'store', 'default');
      const service = await client.get(kinds.Service, 'store', 'default');
      const statefulSet = await client.get(kinds.StatefulSet, 'store-mongodb', 'default');
      const dbService = await client.get(kinds.Service, 'store-mongodb', 'default');
      return [
        deployment?.spec?.template.spec?.containers[0]?.ports?.[0]?.containerPort,
        service?.spec?.ports?.[0]?.port,
        statefulSet?.spec?.volumeClaimTemplates?.[0]?.spec?.resources?.requests?.storage,
        dbService?.spec?.ports?.[0]?.port,
      ];
    };
    await expect.poll(applied, { timeout: 30_000 }).toEqual([3000, 80, '2Gi', 27017]);
    await expect
      .poll(async () => (await client.get(BookStore, 'store', 'default'))?.status?.conditions?.map((c) => [c.type, c.status]))
      .toEqual([['Ready', 'True'], ['DBSizeApplied', 'True']]);
  });
});
