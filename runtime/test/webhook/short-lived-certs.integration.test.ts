import { X509Certificate } from 'node:crypto';
import { KubernetesObjectApi, type KubernetesObject } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, kinds, type Client } from '../../src/client/index.js';
import { createManager, type Manager } from '../../src/manager/index.js';
import { CLOCK_SKEW_MS } from '../../src/certs/self-signed-cert.js';
import { freePort } from '../../src/testing/ports.js';
import { installCRDs, kubectlFor, startControlPlane, type ControlPlane } from '../../src/testing/index.js';
import { serveWebhooks, webhook } from '../../src/webhook/index.js';
import { eventually } from '../fixtures/eventually.js';
import { SHELF_CRD, ShelfV2 } from '../fixtures/webhooks/shelf.js';
import { servedCertificate } from './served-certificate.js';

// A serving certificate of six seconds (`--webhook-cert-validity=6s`) makes a CA of a minute:
// within the test both the leaf renewals and a whole CA rotation happen on the defaults alone,
// which must fit the rotation's overlap inside the CA's last third. A CA of twelve seconds
// (`--webhook-ca-validity=12s`) rotates the same way, with less room.
const SECRET = { namespace: 'default', name: 'webhook-server-cert' };
const pemOf = (data: Record<string, string> | undefined, key: string) => Buffer.from(data?.[key] ?? '', 'base64').toString();

describe('built-in certificates with a lifetime of seconds', () => {
  let cp: ControlPlane;
  let client: Client;
  let mgr: Manager;
  let running: Promise<void>;
  let port: number;

  beforeAll(async () => {
    cp = await startControlPlane();
    client = createClient(cp.kubeConfig);
    await installCRDs(cp.kubeConfig, SHELF_CRD);
    port = await freePort();
    await applyConfiguration(cp, 'shelf-mutating', port);
    mgr = createManager({ kubeConfig: cp.kubeConfig, handleSignals: false, logLevel: 'silent' });
    serveWebhooks(mgr, { host: '127.0.0.1', port, certificate: { builtIn: { secret: SECRET, hosts: ['127.0.0.1'], mutatingWebhookConfigurations: ['shelf-mutating'], validMs: 6_000, refreshMs: 200 } } });
    webhook(mgr).for(ShelfV2).default((shelf) => {
      shelf.spec.image ??= 'nginx:1.27';
    });
    running = mgr.start();
  });
  afterAll(async () => {
    mgr?.stop();
    await running;
    await cp?.stop();
  });

  it('renew the leaf and rotate the CA on the default overlap without losing a request', async () => {
    const { failures, rotated, leaves } = await createUntilRotated(cp, client, port, SECRET, 's');
    expect(failures).toEqual([]);
    expect(rotated).toBe(true);
    // The six-second leaf was renewed along the way, and not on every refresh.
    expect(leaves.size).toBeGreaterThan(2);
    expect(leaves.size).toBeLessThan(40);
  }, 150_000);

  it('rotate a CA of --webhook-ca-validity (twice the leaf) without losing a request', async () => {
    const secret = { namespace: 'default', name: 'webhook-server-cert-short-ca' };
    const shortCaPort = await freePort();
    await applyConfiguration(cp, 'shelf-mutating-short-ca', shortCaPort);
    const shortCa = createManager({ kubeConfig: cp.kubeConfig, handleSignals: false, logLevel: 'silent' });
    serveWebhooks(shortCa, {
      host: '127.0.0.1',
      port: shortCaPort,
      certificate: { builtIn: { secret, hosts: ['127.0.0.1'], mutatingWebhookConfigurations: ['shelf-mutating-short-ca'], validMs: 6_000, caValidMs: 12_000, refreshMs: 200 } },
    });
    webhook(shortCa).for(ShelfV2).default((shelf) => {
      shelf.spec.image ??= 'nginx:1.27';
    });
    const shortCaRunning = shortCa.start();
    try {
      const { failures, rotated, firstCa } = await createUntilRotated(cp, client, shortCaPort, secret, 'c');
      expect(failures).toEqual([]);
      expect(rotated).toBe(true);
      // The CA lived what the flag says (counted from issue: its start is backdated for clock skew).
      const ca = new X509Certificate(firstCa);
      expect(new Date(ca.validTo).getTime() - new Date(ca.validFrom).getTime() - CLOCK_SKEW_MS).toBeGreaterThanOrEqual(11_000);
      expect(new Date(ca.validTo).getTime() - new Date(ca.validFrom).getTime() - CLOCK_SKEW_MS).toBeLessThanOrEqual(13_000);
    } finally {
      shortCa.stop();
      await shortCaRunning;
    }
  }, 150_000);
});

/** A MutatingWebhookConfiguration defaulting new Shelves through the webhook server on loopback `port`. */
async function applyConfiguration(cp: ControlPlane, name: string, port: number): Promise<void> {
  await kubectlFor(cp).apply({
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'MutatingWebhookConfiguration',
    metadata: { name },
    webhooks: [
      {
        name: 'mshelf.test.opgen.dev',
        clientConfig: { url: `https://127.0.0.1:${port}/mutate-test-opgen-dev-v1alpha2-shelf` },
        rules: [{ apiGroups: ['test.opgen.dev'], apiVersions: ['v1alpha2'], operations: ['CREATE'], resources: ['shelves'] }],
        sideEffects: 'None',
        admissionReviewVersions: ['v1'],
        failurePolicy: 'Fail',
      },
    ],
  });
}

/**
 * Creates Shelves (named `<prefix><n>`) until five were defaulted after the CA in `secret` was
 * rotated, or until ten seconds past the first CA's end without a rotation; a request
 * refused or not defaulted is a failure. Returns the failures, the serial numbers served and
 * the first CA.
 */
async function createUntilRotated(cp: ControlPlane, client: Client, port: number, secret: { namespace: string; name: string }, prefix: string) {
  await eventually('the webhook server listening', () => servedCertificate(port));
  const firstCa = await eventually('the CA in the Secret', async () => pemOf((await client.get(kinds.Secret, secret.name, secret.namespace))?.data, 'ca.crt') || undefined);
  const api = KubernetesObjectApi.makeApiClient(cp.kubeConfig);
  const failures: string[] = [];
  const leaves = new Set<string>();
  let admittedAfter = 0;
  let rotated = false;
  const firstCaEnd = new Date(new X509Certificate(firstCa).validTo).getTime();
  for (let i = 0; rotated ? admittedAfter < 5 : Date.now() < firstCaEnd + 10_000; i++) {
    const name = `${prefix}${i}`;
    try {
      const shelf = (await api.create({ apiVersion: 'test.opgen.dev/v1alpha2', kind: 'Shelf', metadata: { name, namespace: 'default' }, spec: {} } as KubernetesObject)) as { spec?: { image?: string } };
      if (shelf.spec?.image !== 'nginx:1.27') failures.push(`${name} was not defaulted`);
      else if (rotated) admittedAfter++;
    } catch (error) {
      failures.push(`${name}: ${(error as Error).message.split('\n').slice(0, 3).join(' ')}`);
    }
    const served = await servedCertificate(port);
    leaves.add(served.serialNumber);
    const data = (await client.get(kinds.Secret, secret.name, secret.namespace))?.data;
    // Rotated: a new CA signs what is served, and the first one is kept as the previous.
    rotated ||= pemOf(data, 'ca-previous.crt') === firstCa && served.verify(new X509Certificate(pemOf(data, 'ca.crt')).publicKey) && pemOf(data, 'ca.crt') !== firstCa;
  }
  return { failures, rotated, leaves, firstCa };
}
