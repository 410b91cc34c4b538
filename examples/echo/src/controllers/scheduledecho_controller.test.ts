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
import { ScheduledEcho } from '../api/v1alpha1/scheduledecho_types.js';
import { setupScheduledEchoController } from './scheduledecho_controller.js';

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
  setupScheduledEchoController(mgr);
  running = mgr.start();
  await mgr.elected();
});

afterAll(async () => {
  mgr?.stop();
  await running;
  await controlPlane?.stop();
});

const cronJob = () => mgr!.client.uncached().get(kinds.CronJob, 'nightly', 'default');

describe('ScheduledEcho controller', () => {
  it('gives a ScheduledEcho a CronJob with its schedule and message, owned by it', async () => {
    const scheduled = await mgr!.client.create(ScheduledEcho, {
      metadata: { name: 'nightly', namespace: 'default' },
      spec: { message: 'good night', schedule: '0 22 * * *' },
    });

    await expect.poll(async () => (await cronJob())?.spec?.schedule, { timeout: 30_000 }).toBe('0 22 * * *');
    const created = (await cronJob())!;
    expect(created.spec?.jobTemplate.spec?.template.spec?.containers[0]?.command).toEqual(['echo', 'good night']);
    expect(created.metadata?.ownerReferences).toEqual([
      expect.objectContaining({ kind: 'ScheduledEcho', name: 'nightly', uid: scheduled.metadata?.uid, controller: true }),
    ]);
  });

  it('follows changes of the schedule and the message', async () => {
    const scheduled = (await mgr!.client.get(ScheduledEcho, 'nightly', 'default'))!;
    await mgr!.client.patch(ScheduledEcho, scheduled, { spec: { schedule: '@hourly', message: 'tick' } });

    await expect.poll(async () => (await cronJob())?.spec?.schedule, { timeout: 30_000 }).toBe('@hourly');
    expect((await cronJob())?.spec?.jobTemplate.spec?.template.spec?.containers[0]?.command).toEqual(['echo', 'tick']);
  });

  it('puts back a schedule changed on the CronJob by hand', async () => {
    const edited = await mgr!.client.withFieldManager('kubectl-edit').patch(kinds.CronJob, (await cronJob())!, { spec: { schedule: '*/5 * * * *' } });
    expect(edited.spec?.schedule).toBe('*/5 * * * *');

    await expect.poll(async () => (await cronJob())?.spec?.schedule, { timeout: 30_000 }).toBe('@hourly');
  });

  it('is refused a schedule that is not cron syntax', async () => {
    const create = mgr!.client.create(ScheduledEcho, {
      metadata: { name: 'sometimes', namespace: 'default' },
      spec: { message: 'maybe', schedule: 'every other tuesday' },
    });
    await expect(create).rejects.toThrow(/schedule must be a cron expression/);
  });
});
