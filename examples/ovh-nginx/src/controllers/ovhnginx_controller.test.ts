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
import { OvhNginx } from '../api/v1/ovhnginx_types.js';
import { setupOvhNginxController } from './ovhnginx_controller.js';

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
  setupOvhNginxController(mgr);
  running = mgr.start();
  await mgr.elected();
});

afterAll(async () => {
  mgr?.stop();
  await running;
  await controlPlane?.stop();
});

describe('OvhNginx controller', () => {
  it('applies a Deployment and a Service that follow the spec', async () => {
    const client = mgr!.client.uncached();
    const nginx = await client.create(OvhNginx, { metadata: { name: 'web', namespace: 'default' }, spec: { replicaCount: 2, port: 8080 } });

    const applied = async () => {
      const deployment = await client.get(kinds.Deployment, 'web', 'default');
      const service = await client.get(kinds.Service, 'web', 'default');
      return [deployment?.spec?.replicas, deployment?.spec?.template.spec?.containers[0]?.ports?.[0]?.containerPort, service?.spec?.ports?.[0]?.port];
    };
    await expect.poll(applied, { timeout: 30_000 }).toEqual([2, 8080, 8080]);

    await client.patch(OvhNginx, nginx, { spec: { replicaCount: 3, port: 9090 } });
    await expect.poll(applied, { timeout: 30_000 }).toEqual([3, 9090, 9090]);
    await expect
      .poll(async () => (await client.get(OvhNginx, 'web', 'default'))?.status?.conditions?.find((c) => c.type === 'Ready')?.status)
      .toBe('True');
  });
});
