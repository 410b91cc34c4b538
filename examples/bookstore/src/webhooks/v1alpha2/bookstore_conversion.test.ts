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
import { installCRDs, installWebhooks, selfSignedCertificate, startControlPlane, type ControlPlane } from '@opgen/runtime/testing';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as v1alpha1 from '../../api/v1alpha1/bookstore_types.js';
import * as v1alpha2 from '../../api/v1alpha2/bookstore_types.js';
import { setupBookStoreConversion, bookStoreV1alpha1Conversion } from './bookstore_conversion.js';

// Random objects of each version, every field of both Specs and the Status included, so the
// round trips below cover them all.
const metadata = fc.record({ name: fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/), namespace: fc.constant('default'), labels: fc.dictionary(fc.stringMatching(/^[a-z]{1,8}$/), fc.string({ maxLength: 8 })) }, { requiredKeys: ['name', 'namespace'] });
const word = fc.stringMatching(/^[a-z0-9.-]{1,12}$/);
const pullPolicy = fc.constantFrom<v1alpha1.PullPolicy>('Always', 'IfNotPresent', 'Never');
const port = fc.integer({ min: 1, max: 65535 });
const replicas = fc.integer({ min: 0, max: 5 });
const dbSize = fc.constantFrom('1Gi', '2Gi', '1500Mi');
const serviceType = fc.constantFrom<v1alpha1.ServiceType>('ClusterIP', 'NodePort', 'LoadBalancer');
const status = fc.record({
  conditions: fc.array(fc.record({ type: fc.constantFrom('Ready', 'DBSizeApplied'), status: fc.constantFrom('True', 'False'), reason: word, message: fc.string(), lastTransitionTime: fc.constant('2026-01-01T00:00:00Z') }), { maxLength: 2 }),
}, { requiredKeys: [] });
const image = fc.record({ repository: word, tag: word, pullPolicy }, { requiredKeys: ['repository'] });
const env = fc.uniqueArray(fc.record({ name: word, value: fc.string({ maxLength: 16 }) }), { selector: (e) => e.name, maxLength: 3 });
const hubObject = fc.record({
  apiVersion: fc.constant('blog.example.com/v1alpha2'),
  kind: fc.constant('BookStore'),
  metadata,
  spec: fc.record({
    bookApp: fc.record({ image, replicas, port, targetPort: port, serviceType, env }, { requiredKeys: ['image'] }),
    bookDB: fc.record({ image, replicas, port, dbSize, storageClassName: word }, { requiredKeys: ['image', 'dbSize'] }),
  }),
  status,
}, { requiredKeys: ['apiVersion', 'kind', 'metadata', 'spec'] });
const bookStoreV1alpha1Object = fc.record({
  apiVersion: fc.constant('blog.example.com/v1alpha1'),
  kind: fc.constant('BookStore'),
  metadata,
  spec: fc.record({
    bookApp: fc.record({ repository: word, tag: word, imagePullPolicy: pullPolicy, replicas, port, targetPort: port, serviceType }, { requiredKeys: ['repository'] }),
    bookDB: fc.record({ repository: word, tag: word, imagePullPolicy: pullPolicy, replicas, port, dbSize, storageClassName: word }, { requiredKeys: ['repository', 'dbSize'] }),
  }),
  status,
}, { requiredKeys: ['apiVersion', 'kind', 'metadata', 'spec'] });

/** What goes on the wire: fast-check's records have no prototype, JSON drops undefined values. */
const wire = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

describe('BookStore conversion round trips', () => {
  it('v1alpha1 → v1alpha2 → v1alpha1 is the identity', async () => {
    await fc.assert(fc.asyncProperty(bookStoreV1alpha1Object, async (spoke) => {
      expect(wire(await bookStoreV1alpha1Conversion.fromHub(await bookStoreV1alpha1Conversion.toHub(spoke)))).toStrictEqual(wire(spoke));
    }));
  });

  it('v1alpha2 → v1alpha1 → v1alpha2 keeps every field, env included', async () => {
    await fc.assert(fc.asyncProperty(hubObject, async (hub) => {
      expect(wire(await bookStoreV1alpha1Conversion.toHub(await bookStoreV1alpha1Conversion.fromHub(hub)))).toStrictEqual(wire(hub));
    }));
  });
});

// Through a real API server: the CRD's conversion goes to this process's webhook server.
let controlPlane: ControlPlane | undefined;
let mgr: Manager | undefined;
let running: Promise<void> | undefined;
// Uncached: each read goes to the API server, which converts.
let client: Client;

beforeAll(async () => {
  controlPlane = await startControlPlane();
  await installCRDs(controlPlane.kubeConfig, fileURLToPath(new URL('../../../config/crd/bases', import.meta.url)));
  mgr = createManager({ kubeConfig: controlPlane.kubeConfig, handleSignals: false, logLevel: 'warn' });
  const server = serveWebhooks(mgr, { host: '127.0.0.1', port: 0, certificate: selfSignedCertificate() });
  setupBookStoreConversion(mgr);
  running = mgr.start();
  client = createClient(controlPlane.kubeConfig);
  await installWebhooks(controlPlane.kubeConfig, { server, conversionCRDs: ['bookstores.blog.example.com'] });
});

afterAll(async () => {
  mgr?.stop();
  await running;
  await controlPlane?.stop();
});

const specOf = (object: { spec?: unknown } | undefined) => JSON.stringify(object?.spec);

describe('BookStore conversion through the API server', () => {
  it('reads a BookStore written as v1alpha1 as v1alpha2, and back byte for byte', async () => {
    const written = await client.create(v1alpha1.BookStore, {
      metadata: { name: 'written-as-v1alpha1', namespace: 'default' },
      spec: { bookApp: { repository: 'akash125/pyapp', tag: '1.0', replicas: 2 }, bookDB: { repository: 'mongo', tag: '7.0', imagePullPolicy: 'Always', dbSize: '2Gi' } },
    });
    const asHub = await client.get(v1alpha2.BookStore, 'written-as-v1alpha1', 'default');
    expect(asHub?.apiVersion).toBe('blog.example.com/v1alpha2');
    expect(asHub?.spec.bookApp.image).toStrictEqual({ repository: 'akash125/pyapp', tag: '1.0', pullPolicy: 'IfNotPresent' });
    expect(asHub?.spec.bookDB).toMatchObject({ image: { repository: 'mongo', tag: '7.0', pullPolicy: 'Always' }, dbSize: '2Gi' });
    const back = await client.get(v1alpha1.BookStore, 'written-as-v1alpha1', 'default');
    expect(specOf(back)).toBe(specOf(written));
    expect(back?.metadata?.annotations).toBeUndefined();
  });

  it('keeps the env v1alpha1 cannot hold across reads and updates as v1alpha1', async () => {
    const env = [{ name: 'MONGO_URL', value: 'mongodb://shop-mongodb:27017' }];
    const written = await client.create(v1alpha2.BookStore, {
      metadata: { name: 'written-as-v1alpha2', namespace: 'default' },
      spec: { bookApp: { image: { repository: 'akash125/pyapp', tag: '1.0' }, env }, bookDB: { image: { repository: 'mongo' }, dbSize: '2Gi' } },
    });
    expect(written.spec.bookApp.env).toStrictEqual(env);

    const asSpoke = await client.get(v1alpha1.BookStore, 'written-as-v1alpha2', 'default');
    expect(asSpoke?.spec.bookApp).not.toHaveProperty('env');
    expect(asSpoke?.spec.bookApp).toMatchObject({ repository: 'akash125/pyapp', tag: '1.0' });

    // A client that only knows v1alpha1 changes a shared field; the hub-only field survives.
    await client.patch(v1alpha1.BookStore, asSpoke!, { spec: { bookApp: { replicas: 3 } } });
    const asHub = await client.get(v1alpha2.BookStore, 'written-as-v1alpha2', 'default');
    expect(asHub?.spec.bookApp.env).toStrictEqual(env);
    expect(asHub?.spec.bookApp.replicas).toBe(3);
    expect(specOf(asHub)).toBe(specOf({ spec: { ...written.spec, bookApp: { ...written.spec.bookApp, replicas: 3 } } }));
  });
});
