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
import { Echo } from '../api/v1alpha1/echo_types.js';
import { setupEchoController } from './echo_controller.js';
import { echoPodTemplate } from './echo_pod.js';

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
  setupEchoController(mgr);
  running = mgr.start();
  await mgr.elected();
});

afterAll(async () => {
  mgr?.stop();
  await running;
  await controlPlane?.stop();
});

describe('Echo controller', () => {
  it('gives an Echo one Job that echoes its message, owned by the Echo', async () => {
    const client = mgr!.client;
    const echo = await client.create(Echo, { metadata: { name: 'hello', namespace: 'default' }, spec: { message: 'Hello, world' } });

    await expect.poll(() => client.get(kinds.Job, 'hello', 'default'), { timeout: 30_000 }).toBeDefined();
    const job = (await client.get(kinds.Job, 'hello', 'default'))!;
    expect(job.spec?.template.spec?.containers[0]?.command).toEqual(['echo', 'Hello, world']);
    expect(job.metadata?.ownerReferences).toEqual([
      expect.objectContaining({ kind: 'Echo', name: 'hello', uid: echo.metadata?.uid, controller: true }),
    ]);
  });

  it('does not create a second Job when it reconciles the Echo again', async () => {
    const client = mgr!.client;
    const before = await client.uncached().get(kinds.Job, 'hello', 'default');
    // Any change to the Echo reconciles it again; the metric counts the reconcile done.
    const reconciled = async () => Number(/^controller_runtime_reconcile_total\{controller="echo",result="success"\} (\d+)/m.exec(await mgr!.metrics.registry.metrics())?.[1] ?? 0);
    const done = await reconciled();
    await client.patch(Echo, { metadata: { name: 'hello', namespace: 'default' } }, { metadata: { annotations: { touched: 'yes' } } });
    await expect.poll(reconciled, { timeout: 30_000 }).toBeGreaterThan(done);

    const jobs = await client.uncached().list(kinds.Job, { namespace: 'default' });
    expect(jobs.map((j) => j.metadata?.uid)).toEqual([before?.metadata?.uid]);
  });

  it('warns on the Echo, and leaves the Job alone, when a Job that is not its own has its name', async () => {
    const client = mgr!.client;
    await client.create(kinds.Job, { metadata: { name: 'taken', namespace: 'default' }, spec: { template: echoPodTemplate('not yours') } });
    await client.create(Echo, { metadata: { name: 'taken', namespace: 'default' }, spec: { message: 'mine' } });

    const warnings = async () =>
      (await client.uncached().list(kinds.Event, { namespace: 'default' })).filter((e) => e.regarding?.name === 'taken' && e.reason === 'JobNameTaken');
    await expect.poll(async () => (await warnings()).length, { timeout: 30_000 }).toBe(1);
    expect((await warnings())[0]?.type).toBe('Warning');
    const job = await client.uncached().get(kinds.Job, 'taken', 'default');
    expect(job?.spec?.template.spec?.containers[0]?.command).toEqual(['echo', 'not yours']);
    expect(job?.metadata?.ownerReferences).toBeUndefined();
  });

  it('refuses to change the message of an Echo', async () => {
    const echo = (await mgr!.client.get(Echo, 'hello', 'default'))!;
    await expect(mgr!.client.patch(Echo, echo, { spec: { message: 'Goodbye' } })).rejects.toThrow(/message is immutable/);
  });
});
