import { createServer, connect, type Socket } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, kinds, type Client } from '../../src/client/index.js';
import { controller } from '../../src/controller/index.js';
import { createManager, type Manager } from '../../src/manager/index.js';
import { selfSignedCertificate } from '../../src/certs/self-signed-cert.js';
import { installCRDs, installWebhooks, kubectlFor, startControlPlane, type ControlPlane, type Kubectl } from '../../src/testing/index.js';
import { conversion, serveWebhooks, webhook } from '../../src/webhook/index.js';
import { eventually } from '../fixtures/eventually.js';
import { Gadget, GADGET_CRD } from '../fixtures/kinds.js';
import { SHELF_CRD, SHELF_WEBHOOKS, ShelfV1, ShelfV2, shelfV1Conversion } from '../fixtures/webhooks/shelf.js';

// The webhook server starts before the caches (webhooks.md §3). A manager whose cache
// cannot sync (its Gadget CRD is not installed yet) must already answer the API server's
// admission and conversion calls; and its informer on Shelf v1alpha1, a version the API
// server must convert every stored object to, syncs only because /convert answers its
// first list. Were the server started after the caches, neither would ever happen.
describe('a webhook server started before the caches, on a real API server', () => {
  let cp: ControlPlane;
  let kubectl: Kubectl;
  let admin: Client;
  let mgr: Manager;
  let running: Promise<void>;
  const reconciled: string[] = [];

  const readyz = async (check = '') => {
    const response = await fetch(`http://${mgr.healthProbeAddress}/readyz${check}`);
    return { status: response.status, body: await response.text() };
  };

  beforeAll(async () => {
    cp = await startControlPlane();
    kubectl = kubectlFor(cp);
    admin = createClient(cp.kubeConfig);
    await installCRDs(cp.kubeConfig, SHELF_CRD);
    // Written as the storage version, before any conversion webhook exists.
    await admin.create(ShelfV2, { metadata: { name: 'stored', namespace: 'default' }, spec: { replicas: 2, image: 'busybox:1', tier: 'gold' } });

    mgr = createManager({ kubeConfig: cp.kubeConfig, handleSignals: false, logLevel: 'silent', healthProbeBindAddress: '127.0.0.1:0' });
    const server = serveWebhooks(mgr, { host: '127.0.0.1', port: 0, certificate: selfSignedCertificate() });
    webhook(mgr)
      .for(ShelfV2)
      .default((shelf) => {
        shelf.spec.image ??= 'nginx:1.27';
      })
      .validate({ create: () => ({}) });
    conversion(mgr).for(ShelfV2).hub(ShelfV2).spoke(ShelfV1, shelfV1Conversion);
    controller(mgr)
      .for(ShelfV1)
      .reconcile(async (req) => {
        reconciled.push(req.name);
      });
    controller(mgr)
      .for(Gadget)
      .reconcile(async () => {});
    running = mgr.start();
    // Proves by a call through the API server that both admission paths and /convert answer.
    await installWebhooks(cp.kubeConfig, { server, configurations: SHELF_WEBHOOKS, conversionCRDs: ['shelves.test.opgen.dev'] });
  });
  afterAll(async () => {
    mgr?.stop();
    await running?.catch(() => {});
    await cp?.stop();
  });

  it('answers the API server while the caches have not synced', async () => {
    const notReady = await readyz();
    expect(notReady.status).toBe(500);
    expect(notReady.body).toContain('[-]cache-sync failed');
    expect(await readyz('/webhook')).toEqual({ status: 200, body: 'ok' });

    // Defaulted by the webhook, and read back as v1alpha1 through /convert, cache still unsynced.
    await kubectl(['create', '-f', '-'], { input: JSON.stringify({ apiVersion: 'test.opgen.dev/v1alpha2', kind: 'Shelf', metadata: { name: 'early', namespace: 'default' }, spec: { replicas: 1 } }) });
    expect((await admin.get(ShelfV2, 'early', 'default'))?.spec).toEqual({ replicas: 1, image: 'nginx:1.27' });
    expect((await admin.get(ShelfV1, 'stored', 'default'))?.spec).toEqual({ size: 2, image: 'busybox:1' });
    expect((await readyz()).status).toBe(500);
    expect(reconciled).toEqual([]);
  });

  it('syncs an informer on a converted version, and becomes ready once the last cache syncs', async () => {
    await installCRDs(cp.kubeConfig, GADGET_CRD);
    await eventually('ready', async () => (await readyz()).status === 200, 40_000);
    await eventually('the v1alpha1 informer lists both shelves', () => ['early', 'stored'].every((name) => reconciled.includes(name)));
  });
});

/**
 * A TCP relay to the API server that holds every connection (accepted, nothing forwarded)
 * until `release()`, then forwards them all: an API server that is slow to answer.
 */
async function heldRelay(kubeConfig: KubeConfig): Promise<{ kubeConfig: KubeConfig; held(): number; release(): void; close(): Promise<void> }> {
  const target = new URL(kubeConfig.getCurrentCluster()!.server);
  const sockets = new Set<Socket>();
  const waiting: Socket[] = [];
  let released = false;
  const forward = (client: Socket) => {
    const upstream = connect(Number(target.port), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
    client.resume();
  };
  const server = createServer((client) => {
    sockets.add(client);
    if (released) forward(client);
    else {
      client.pause();
      waiting.push(client);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const relayed = new KubeConfig();
  relayed.loadFromString(kubeConfig.exportConfig());
  const cluster = relayed.getCurrentCluster()!;
  relayed.loadFromOptions({
    clusters: relayed.clusters.map((c) => (c.name === cluster.name ? { ...c, server: `https://127.0.0.1:${(server.address() as { port: number }).port}` } : c)),
    users: relayed.users,
    contexts: relayed.contexts,
    currentContext: relayed.currentContext,
  });
  return {
    kubeConfig: relayed,
    held: () => waiting.length,
    release() {
      released = true;
      for (const client of waiting.splice(0)) forward(client);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

// The built-in certificates come from a Secret: until the API server answers, there is
// nothing to serve, and /readyz must say so rather than send traffic to a closed port.
describe('/readyz of a manager whose webhook listener has not started', () => {
  let cp: ControlPlane;
  beforeAll(async () => {
    cp = await startControlPlane();
  });
  afterAll(async () => {
    await cp?.stop();
  });

  it('fails the webhook check until the listener answers TLS, then passes', async () => {
    const relay = await heldRelay(cp.kubeConfig);
    const mgr = createManager({ kubeConfig: relay.kubeConfig, handleSignals: false, logLevel: 'silent', healthProbeBindAddress: '127.0.0.1:0' });
    const server = serveWebhooks(mgr, { host: '127.0.0.1', port: 0, certificate: { builtIn: { secret: { namespace: 'default', name: 'held-cert' }, hosts: ['127.0.0.1'] } } });
    webhook(mgr)
      .for(ShelfV2)
      .default(() => {});
    const running = mgr.start();
    const check = async () => {
      const response = await fetch(`http://${mgr.healthProbeAddress}/readyz/webhook`);
      return { status: response.status, body: await response.text() };
    };
    try {
      await eventually('the probe server', () => mgr.healthProbeAddress);
      await eventually('the certificate Secret read held by the relay', () => relay.held() > 0);
      const held = await check();
      expect(held.status).toBe(500);
      expect(held.body).toBe('[-]webhook failed: the webhook server is not listening yet\nreadyz check failed\n');
      expect(server.url).toBeUndefined();

      relay.release();
      await eventually('the webhook check passes', async () => (await check()).status === 200, 30_000);
      expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      expect(await createClient(cp.kubeConfig).get(kinds.Secret, 'held-cert', 'default')).toBeDefined();
    } finally {
      mgr.stop();
      await running.catch(() => {});
      await relay.close();
    }
  });
});
