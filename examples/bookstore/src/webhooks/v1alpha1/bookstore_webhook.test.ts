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
import { createManager, serveWebhooks, type Manager } from '@opgen/runtime';
import { installCRDs, installWebhooks, kubectlFor, selfSignedCertificate, startControlPlane, type ControlPlane, type Kubectl } from '@opgen/runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BookStore } from '../../api/v1alpha1/bookstore_types.js';
import { defaultTag, setupBookStoreWebhook } from './bookstore_webhook.js';

// A real API server calling this project's webhooks, served by a manager in this process
// over TLS on loopback: installWebhooks points config/webhook (`npm run manifests` writes
// it) at the local server and proves the API server reaches it before any test runs. The
// user's side is kubectl, so what these tests see is what a user sees.
let controlPlane: ControlPlane | undefined;
let mgr: Manager | undefined;
let running: Promise<void> | undefined;
let kubectl: Kubectl;

beforeAll(async () => {
  controlPlane = await startControlPlane();
  // Found from this file, so the test runs from any working directory.
  await installCRDs(controlPlane.kubeConfig, fileURLToPath(new URL('../../../config/crd/bases', import.meta.url)));
  mgr = createManager({ kubeConfig: controlPlane.kubeConfig, handleSignals: false, logLevel: 'warn' });
  const server = serveWebhooks(mgr, { host: '127.0.0.1', port: 0, certificate: selfSignedCertificate() });
  setupBookStoreWebhook(mgr);
  running = mgr.start();
  kubectl = kubectlFor(controlPlane);
  await installWebhooks(controlPlane.kubeConfig, { server, configurations: fileURLToPath(new URL('../../../config/webhook', import.meta.url)) });
});

afterAll(async () => {
  mgr?.stop();
  await running;
  await controlPlane?.stop();
});

const bookStore = (name: string, spec: { appTag?: string; dbTag?: string; dbSize?: string }) => ({
  apiVersion: 'blog.example.com/v1alpha1',
  kind: 'BookStore',
  metadata: { name, namespace: 'default' },
  spec: {
    bookApp: { repository: 'akash125/pyapp', ...(spec.appTag === undefined ? {} : { tag: spec.appTag }) },
    bookDB: { repository: 'mongo', ...(spec.dbTag === undefined ? {} : { tag: spec.dbTag }), dbSize: spec.dbSize ?? '2Gi' },
  },
});
// v1alpha1 by name: a plain `bookstore` is v1alpha2, which needs the conversion webhook
// (tested in ../v1alpha2/bookstore_conversion.test.ts).
const resource = 'bookstores.v1alpha1.blog.example.com';
const stored = (name: string) => kubectl.get<BookStore>(resource, name, { namespace: 'default' });
const patchDBSize = (name: string, dbSize: string) =>
  kubectl.run(['patch', resource, name, '-n', 'default', '--type=merge', '-p', JSON.stringify({ spec: { bookDB: { dbSize } } })]);

describe('BookStore webhooks', () => {
  it('fill the image tags left out or empty, and keep the ones given', async () => {
    await kubectl(['create', '-f', '-'], { input: JSON.stringify(bookStore('untagged', { dbTag: '' })) });
    expect((await stored('untagged'))?.spec.bookApp.tag).toBe(defaultTag);
    expect((await stored('untagged'))?.spec.bookDB.tag).toBe(defaultTag);

    await kubectl(['create', '-f', '-'], { input: JSON.stringify(bookStore('tagged', { appTag: '1.0', dbTag: '7.0' })) });
    expect((await stored('tagged'))?.spec).toMatchObject({ bookApp: { tag: '1.0' }, bookDB: { tag: '7.0' } });
  });

  it('fill a tag emptied by an update', async () => {
    await kubectl(['create', '-f', '-'], { input: JSON.stringify(bookStore('emptied', { appTag: '1.0', dbTag: '7.0' })) });
    await kubectl(['patch', resource, 'emptied', '-n', 'default', '--type=merge', '-p', JSON.stringify({ spec: { bookApp: { tag: '' } } })]);
    expect((await stored('emptied'))?.spec).toMatchObject({ bookApp: { tag: defaultTag }, bookDB: { tag: '7.0' } });
  });

  it('refuse a smaller dbSize before it is stored, with the reason on kubectl', async () => {
    await kubectl(['create', '-f', '-'], { input: JSON.stringify(bookStore('shrunk', { dbSize: '2Gi' })) });
    const refused = await patchDBSize('shrunk', '1500Mi');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('admission webhook "vbookstore-v1alpha1.kb.io" denied the request');
    expect(refused.stderr).toContain('spec.bookDB.dbSize cannot shrink from 2Gi to 1500Mi');
    expect((await stored('shrunk'))?.spec.bookDB.dbSize).toBe('2Gi');
  });

  it('let dbSize grow, or stay the same written another way', async () => {
    await kubectl(['create', '-f', '-'], { input: JSON.stringify(bookStore('grown', { dbSize: '2Gi' })) });
    expect((await patchDBSize('grown', '2048Mi')).code).toBe(0);
    expect((await patchDBSize('grown', '3Gi')).code).toBe(0);
    expect((await stored('grown'))?.spec.bookDB.dbSize).toBe('3Gi');
  });
});
