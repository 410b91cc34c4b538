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
import { createClient, createManager, serveWebhooks, type Client, type Manager } from '@opgen/runtime';
import { ApiError } from '@opgen/runtime/client';
import { installCRDs, installWebhooks, selfSignedCertificate, startControlPlane, type ControlPlane } from '@opgen/runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CronJob } from '../../api/v1/cronjob_types.js';
import { defaults, setupCronJobWebhook } from './cronjob_webhook.js';

// A real API server calling this project's webhooks, served by a manager in this process
// over TLS on loopback: installWebhooks points config/webhook (`npm run manifests` writes
// it) at the local server and proves the API server reaches it before any test runs.
let controlPlane: ControlPlane | undefined;
let mgr: Manager | undefined;
let running: Promise<void> | undefined;
// Uncached: each read goes to the API server, which converts and admits.
let client: Client;

beforeAll(async () => {
  controlPlane = await startControlPlane();
  // Found from this file, so the test runs from any working directory.
  await installCRDs(controlPlane.kubeConfig, fileURLToPath(new URL('../../../config/crd/bases', import.meta.url)));
  mgr = createManager({ kubeConfig: controlPlane.kubeConfig, handleSignals: false, logLevel: 'warn' });
  const server = serveWebhooks(mgr, { host: '127.0.0.1', port: 0, certificate: selfSignedCertificate() });
  setupCronJobWebhook(mgr);
  running = mgr.start();
  client = createClient(controlPlane.kubeConfig);
  await installWebhooks(controlPlane.kubeConfig, { server, configurations: fileURLToPath(new URL('../../../config/webhook', import.meta.url)) });
});

afterAll(async () => {
  mgr?.stop();
  await running;
  await controlPlane?.stop();
});

const jobTemplate = { spec: { template: { spec: { containers: [{ name: 'hello', image: 'busybox:1.37' }], restartPolicy: 'Never' as const } } } };

describe('CronJob webhooks', () => {
  it('default the concurrency policy, suspend and the history limits left out', async () => {
    const created = await client.create(CronJob, { metadata: { name: 'defaulted', namespace: 'default' }, spec: { schedule: '*/1 * * * *', jobTemplate } });
    expect(created.spec).toMatchObject(defaults);
  });

  it('keep the values given', async () => {
    const given = { concurrencyPolicy: 'Forbid', suspend: true, successfulJobsHistoryLimit: 0, failedJobsHistoryLimit: 5 } as const;
    const created = await client.create(CronJob, { metadata: { name: 'given', namespace: 'default' }, spec: { schedule: '@hourly', jobTemplate, ...given } });
    expect(created.spec).toMatchObject(given);
  });

  it('refuse a schedule that is not cron and a name too long for its Jobs, with a 422 naming each field', async () => {
    const name = 'a'.repeat(53);
    const refused = await client.create(CronJob, { metadata: { name, namespace: 'default' }, spec: { schedule: '*/1 * * *', jobTemplate } }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    const status = (refused as ApiError).status;
    expect(status).toMatchObject({ code: 422, reason: 'Invalid', details: { name, group: 'batch.tutorial.kubebuilder.io', kind: 'CronJob' } });
    expect(status?.details?.causes).toEqual([
      { reason: 'FieldValueInvalid', field: 'metadata.name', message: `Invalid value: "${name}": must be no more than 52 characters` },
      { reason: 'FieldValueInvalid', field: 'spec.schedule', message: 'Invalid value: "*/1 * * *": expected exactly 5 fields, found 4: [*/1 * * *]' },
    ]);
    expect(await client.get(CronJob, name, 'default')).toBeUndefined();
  });

  it('refuse an update to a schedule with a bad field, and keep a 52-character name', async () => {
    const name = 'b'.repeat(52);
    const created = await client.create(CronJob, { metadata: { name, namespace: 'default' }, spec: { schedule: '@every 90s', jobTemplate } });
    await expect(client.patch(CronJob, created, { spec: { schedule: '61 * * * *' } })).rejects.toThrow(/spec.schedule: Invalid value: "61 \* \* \* \*": .*61/);
    expect((await client.get(CronJob, name, 'default'))?.spec.schedule).toBe('@every 90s');
  });
});
