import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManager, type Manager } from '../../src/manager/index.js';
import { selfSignedCertificate } from '../../src/certs/self-signed-cert.js';
import { installCRDs, installWebhooks, kubectlFor, startControlPlane, type ControlPlane, type Kubectl } from '../../src/testing/index.js';
import { conversion, deny, serveWebhooks, webhook, type WebhookServer } from '../../src/webhook/index.js';
import { eventually } from '../fixtures/eventually.js';
import { SHELF_CRD, SHELF_WEBHOOKS, ShelfV1, ShelfV2, shelfV1Conversion } from '../fixtures/webhooks/shelf.js';

const V1 = 'shelves.v1alpha1.test.opgen.dev';
const V2 = 'shelves.v1alpha2.test.opgen.dev';

describe('webhooks called by a real API server', () => {
  let cp: ControlPlane;
  let kubectl: Kubectl;
  let mgr: Manager;
  let server: WebhookServer;
  let running: Promise<void>;

  beforeAll(async () => {
    cp = await startControlPlane();
    kubectl = kubectlFor(cp);
    await installCRDs(cp.kubeConfig, SHELF_CRD);
    mgr = createManager({ kubeConfig: cp.kubeConfig, handleSignals: false, logLevel: 'silent', healthProbeBindAddress: '127.0.0.1:0' });
    server = serveWebhooks(mgr, { host: '127.0.0.1', port: 0, certificate: selfSignedCertificate() });
    webhook(mgr)
      .for(ShelfV2)
      .default((shelf) => {
        shelf.spec.image ??= 'nginx:1.27';
      })
      .validate({
        create: (shelf) => (shelf.spec.tier ? {} : { warnings: ['shelf has no tier'] }),
        update: (old, shelf) => {
          if ((shelf.spec.replicas ?? 0) < (old.spec.replicas ?? 0)) throw deny(`replicas cannot shrink from ${old.spec.replicas} to ${shelf.spec.replicas}`, { warnings: ['delete and recreate to shrink'] });
        },
        delete: (shelf) => {
          if (shelf.metadata?.labels?.protected === 'true') throw new Error('this shelf is protected');
        },
      });
    conversion(mgr).for(ShelfV2).hub(ShelfV2).spoke(ShelfV1, shelfV1Conversion);
    running = mgr.start();
    await installWebhooks(cp.kubeConfig, { server, configurations: SHELF_WEBHOOKS, conversionCRDs: ['shelves.test.opgen.dev'] });
  });
  afterAll(async () => {
    mgr?.stop();
    await running;
    await cp?.stop();
  });

  const manifest = (object: object) => ({ input: JSON.stringify(object) });

  it('reports ready on /readyz once the webhook listener answers TLS', async () => {
    const ready = await eventually('readyz', async () => (await fetch(`http://${mgr.healthProbeAddress}/readyz`)).status === 200);
    expect(ready).toBe(true);
  });

  it('defaults on create, shows warnings, refuses a shrink with its message and a protected delete', async () => {
    const created = await kubectl.run(['create', '-f', '-'], manifest({ apiVersion: 'test.opgen.dev/v1alpha2', kind: 'Shelf', metadata: { name: 'one', namespace: 'default', labels: { protected: 'true' } }, spec: { replicas: 3 } }));
    expect(created.code).toBe(0);
    expect(created.stderr).toContain('Warning: shelf has no tier');
    expect((await kubectl.get(V2, 'one', { namespace: 'default' })).spec).toEqual({ replicas: 3, image: 'nginx:1.27' });

    const shrink = await kubectl.run(['patch', V2, 'one', '--type=merge', '-p', '{"spec":{"replicas":1}}']);
    expect(shrink.code).toBe(1);
    expect(shrink.stderr).toContain('admission webhook "vshelf-v1alpha2.kb.io" denied the request: replicas cannot shrink from 3 to 1');
    expect(shrink.stderr).toContain('Warning: delete and recreate to shrink');
    expect((await kubectl.run(['patch', V2, 'one', '--type=merge', '-p', '{"spec":{"replicas":4}}'])).code).toBe(0);

    const removal = await kubectl.run(['delete', V2, 'one']);
    expect(removal.code).toBe(1);
    expect(removal.stderr).toContain('this shelf is protected');
    await kubectl(['label', V2, 'one', 'protected-']);
    expect((await kubectl.run(['delete', V2, 'one'])).code).toBe(0);
  });

  it('reads an object written as v1alpha1 as v1alpha2 and back unchanged, and keeps a field v1alpha1 cannot hold', async () => {
    const written = { apiVersion: 'test.opgen.dev/v1alpha1', kind: 'Shelf', metadata: { name: 'old', namespace: 'default', labels: { a: 'b' } }, spec: { size: 2, image: 'busybox:1' } };
    await kubectl(['create', '-f', '-'], manifest(written));
    const asV2 = JSON.parse(await kubectl(['get', V2, 'old', '-o', 'json']));
    expect(asV2.spec).toEqual({ replicas: 2, image: 'busybox:1' });
    const asV1 = await kubectl(['get', V1, 'old', '-o', 'json']);
    const back = JSON.parse(asV1);
    expect(back.spec).toEqual(written.spec);
    expect(back.metadata.labels).toEqual(written.metadata.labels);
    expect(back.metadata.annotations).toBeUndefined();
    expect(await kubectl(['get', V1, 'old', '-o', 'json'])).toBe(asV1);

    await kubectl(['create', '-f', '-'], manifest({ apiVersion: 'test.opgen.dev/v1alpha2', kind: 'Shelf', metadata: { name: 'gold', namespace: 'default' }, spec: { replicas: 1, tier: 'gold' } }));
    const down = JSON.parse(await kubectl(['get', V1, 'gold', '-o', 'json']));
    expect(down.spec).toEqual({ size: 1, image: 'nginx:1.27' });
    // A v1alpha1 client edits what it knows and writes the object back whole.
    down.spec.size = 2;
    await kubectl(['replace', '-f', '-'], manifest(down));
    const up = JSON.parse(await kubectl(['get', V2, 'gold', '-o', 'json']));
    expect(up.spec).toEqual({ replicas: 2, image: 'nginx:1.27', tier: 'gold' });
    expect(up.metadata.annotations).toBeUndefined();
  });

  it('fails installWebhooks with the reason when the API server cannot reach the server', async () => {
    const stranger = { ...server, url: server.url, certificatePem: selfSignedCertificate().certPem };
    await expect(installWebhooks(cp.kubeConfig, { server: stranger, timeoutMs: 2_000 })).rejects.toThrow(
      `the API server does not reach the webhook server at ${server.url}: `,
    );
  });
});
