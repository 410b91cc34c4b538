import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { loadAllYaml } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, kinds, type Client } from '../../src/client/index.js';
import { createManager, type Manager } from '../../src/manager/index.js';
import { issueCertificate } from '../../src/certs/self-signed-cert.js';
import { freePort } from '../../src/testing/ports.js';
import { kubectlFor, startControlPlane, type ControlPlane } from '../../src/testing/index.js';
import { conversion, serveWebhooks, webhook } from '../../src/webhook/index.js';
import { eventually } from '../fixtures/eventually.js';
import { SHELF_CRD, ShelfV1, ShelfV2, shelfV1Conversion } from '../fixtures/webhooks/shelf.js';

// After a CA rotation the previous CA stays trusted until it expires; then it must leave
// every caBundle (both webhook configurations and the CRD's conversion) and the Secret.
// The bundle written before never changes by itself, so the manager must notice the expiry.

const SECRET = { namespace: 'default', name: 'expiring-ca-cert' };
const CA_NAME = 'opgen-webhook-ca';
const b64 = (text: string) => Buffer.from(text).toString('base64');
const certificatesIn = (caBundle: string) => Buffer.from(caBundle, 'base64').toString().match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----\n?/g) ?? [];

describe('an expired previous CA of the built-in certificates', () => {
  let cp: ControlPlane;
  let client: Client;
  let mgr: Manager;
  let running: Promise<void>;
  const current = issueCertificate({ ca: true, commonName: CA_NAME, validDays: 3650 });
  let previous: { certPem: string; keyPem: string };

  const bundles = async (): Promise<Record<string, string>> => {
    const kubectl = kubectlFor(cp);
    return {
      mutating: (await kubectl.get('mutatingwebhookconfiguration', 'expiring-mutating')).webhooks[0].clientConfig.caBundle,
      validating: (await kubectl.get('validatingwebhookconfiguration', 'expiring-validating')).webhooks[0].clientConfig.caBundle,
      crd: (await kubectl.get('crd', 'shelves.test.opgen.dev')).spec.conversion.webhook.clientConfig.caBundle,
    };
  };

  beforeAll(async () => {
    cp = await startControlPlane();
    client = createClient(cp.kubeConfig);
    const port = await freePort();
    const url = `https://127.0.0.1:${port}`;
    const leaf = issueCertificate({ hosts: ['127.0.0.1'], issuer: { commonName: CA_NAME, keyPem: current.keyPem } });
    // The CA before the last rotation, with seconds left.
    previous = issueCertificate({ ca: true, commonName: CA_NAME, validMs: 12_000 });
    await client.create(kinds.Secret, {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: SECRET,
      data: { 'ca.crt': b64(current.certPem), 'ca.key': b64(current.keyPem), 'tls.crt': b64(leaf.certPem), 'tls.key': b64(leaf.keyPem), 'ca-previous.crt': b64(previous.certPem) },
    });
    const crd = loadAllYaml(readFileSync(SHELF_CRD, 'utf8'))[0] as { spec: { conversion?: unknown } };
    crd.spec.conversion = { strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'], clientConfig: { url: `${url}/convert` } } };
    const entry = (name: string, path: string) => ({
      name,
      clientConfig: { url: `${url}${path}` },
      rules: [{ apiGroups: ['test.opgen.dev'], apiVersions: ['v1alpha2'], operations: ['CREATE'], resources: ['shelves'] }],
      sideEffects: 'None',
      admissionReviewVersions: ['v1'],
      failurePolicy: 'Fail',
    });
    await kubectlFor(cp).apply([
      crd,
      { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingWebhookConfiguration', metadata: { name: 'expiring-mutating' }, webhooks: [entry('m.test.opgen.dev', '/mutate-test-opgen-dev-v1alpha2-shelf')] },
      { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'expiring-validating' }, webhooks: [entry('v.test.opgen.dev', '/validate-test-opgen-dev-v1alpha2-shelf')] },
    ]);
    mgr = createManager({ kubeConfig: cp.kubeConfig, handleSignals: false, logLevel: 'silent' });
    serveWebhooks(mgr, {
      host: '127.0.0.1',
      port,
      certificate: {
        builtIn: { secret: SECRET, hosts: ['127.0.0.1'], mutatingWebhookConfigurations: ['expiring-mutating'], validatingWebhookConfigurations: ['expiring-validating'], crds: ['shelves.test.opgen.dev'], refreshMs: 200 },
      },
    });
    webhook(mgr)
      .for(ShelfV2)
      .default((shelf) => {
        shelf.spec.image ??= 'nginx:1.27';
      })
      .validate({});
    conversion(mgr).for(ShelfV2).hub(ShelfV2).spoke(ShelfV1, shelfV1Conversion);
    running = mgr.start();
  });
  afterAll(async () => {
    mgr?.stop();
    await running?.catch(() => {});
    await cp?.stop();
  });

  it('leaves every caBundle and the Secret once expired, while the webhooks keep answering', async () => {
    const trusted = await eventually('both CAs in every caBundle', async () => {
      const all = await bundles();
      return Object.values(all).every((bundle) => bundle === b64(`${current.certPem}${previous.certPem}`)) && all;
    });
    expect(Object.keys(trusted)).toEqual(['mutating', 'validating', 'crd']);

    await eventually('the expired CA gone from every caBundle', async () => Object.values(await bundles()).every((bundle) => bundle === b64(current.certPem)), 30_000);
    const now = Date.now();
    for (const bundle of Object.values(await bundles())) {
      for (const pem of certificatesIn(bundle)) expect(new Date(new X509Certificate(pem).validTo).getTime()).toBeGreaterThan(now);
    }
    const secret = await client.get(kinds.Secret, SECRET.name, SECRET.namespace);
    expect(secret?.data?.['ca-previous.crt']).toBeUndefined();
    expect(Buffer.from(secret?.data?.['ca.crt'] ?? '', 'base64').toString()).toBe(current.certPem);

    // Admission and conversion still verify against the bundle that is left.
    const shelf = await client.create(ShelfV2, { metadata: { name: 'after-expiry', namespace: 'default' }, spec: { replicas: 2 } });
    expect(shelf.spec.image).toBe('nginx:1.27');
    expect((await client.get(ShelfV1, 'after-expiry', 'default'))?.spec.size).toBe(2);
  }, 60_000);
});
