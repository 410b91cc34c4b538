import { X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, kinds, type Client } from '../../src/client/index.js';
import { createManager, type Manager } from '../../src/manager/index.js';
import { issueCertificate } from '../../src/certs/self-signed-cert.js';
import { freePort } from '../../src/testing/ports.js';
import { installCRDs, kubectlFor, readCRDs, startControlPlane, type ControlPlane, type Kubectl } from '../../src/testing/index.js';
import { conversion, serveWebhooks, webhook, type BuiltInCertificateOptions, type WebhookServer } from '../../src/webhook/index.js';
import { eventually } from '../fixtures/eventually.js';
import { servedCertificate } from './served-certificate.js';
import { SHELF_CRD, ShelfV1, ShelfV2, shelfV1Conversion } from '../fixtures/webhooks/shelf.js';

const SECRET = { namespace: 'default', name: 'webhook-server-cert' };

describe('built-in webhook certificates', () => {
  let cp: ControlPlane;
  let client: Client;
  let kubectl: Kubectl;
  const replicas: Array<{ mgr: Manager; server: WebhookServer; running: Promise<void>; port: number }> = [];

  beforeAll(async () => {
    cp = await startControlPlane();
    client = createClient(cp.kubeConfig);
    kubectl = kubectlFor(cp);
    const ports = [await freePort(), await freePort()];
    const url = `https://127.0.0.1:${ports[0]}`;
    // The webhooks as deployed, without a caBundle: the replicas inject it.
    const [crd] = readCRDs(SHELF_CRD);
    crd!.spec.conversion = { strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'], clientConfig: { url: `${url}/convert` } } };
    await kubectl.apply(crd!);
    await installCRDs(cp.kubeConfig, SHELF_CRD);
    await kubectl.apply({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'MutatingWebhookConfiguration',
      metadata: { name: 'shelf-mutating' },
      webhooks: [
        {
          name: 'mshelf.test.opgen.dev',
          clientConfig: { url: `${url}/mutate-test-opgen-dev-v1alpha2-shelf` },
          rules: [{ apiGroups: ['test.opgen.dev'], apiVersions: ['v1alpha2'], operations: ['CREATE'], resources: ['shelves'] }],
          sideEffects: 'None',
          admissionReviewVersions: ['v1'],
          failurePolicy: 'Fail',
        },
      ],
    });
    const builtIn: BuiltInCertificateOptions = {
      secret: SECRET,
      hosts: ['webhook-service.system.svc', '127.0.0.1'],
      mutatingWebhookConfigurations: ['shelf-mutating'],
      crds: ['shelves.test.opgen.dev'],
      refreshMs: 200,
    };
    // Two replicas start at once and race to create the Secret.
    for (const port of ports) {
      const mgr = createManager({ kubeConfig: cp.kubeConfig, handleSignals: false, logLevel: 'silent' });
      const server = serveWebhooks(mgr, { host: '127.0.0.1', port, certificate: { builtIn } });
      webhook(mgr).for(ShelfV2).default((shelf) => {
        shelf.spec.image ??= 'nginx:1.27';
      });
      conversion(mgr).for(ShelfV2).hub(ShelfV2).spoke(ShelfV1, shelfV1Conversion);
      replicas.push({ mgr, server, running: mgr.start(), port });
    }
    await eventually('both replicas serving', () => replicas.every((r) => r.server.url !== undefined), 30_000);
  });
  afterAll(async () => {
    for (const r of replicas) r.mgr.stop();
    await Promise.all(replicas.map((r) => r.running));
    await cp?.stop();
  });

  it('creates one CA and serving certificate in a Secret that both replicas serve, and injects the CA', async () => {
    const secret = await client.get(kinds.Secret, SECRET.name, SECRET.namespace);
    const caPem = Buffer.from(secret!.data!['ca.crt']!, 'base64').toString();
    const leafPem = Buffer.from(secret!.data!['tls.crt']!, 'base64').toString();
    const leaf = new X509Certificate(leafPem);
    expect(leaf.verify(new X509Certificate(caPem).publicKey)).toBe(true);
    expect(leaf.checkHost('webhook-service.system.svc')).toBe('webhook-service.system.svc');
    for (const r of replicas) expect((await servedCertificate(r.port)).fingerprint256).toBe(leaf.fingerprint256);
    const caBundle = Buffer.from(caPem).toString('base64');
    const configuration = await kubectl.get('mutatingwebhookconfiguration', 'shelf-mutating');
    expect(configuration.webhooks[0].clientConfig.caBundle).toBe(caBundle);
    const crd = await kubectl.get('crd', 'shelves.test.opgen.dev');
    expect(crd.spec.conversion.webhook.clientConfig.caBundle).toBe(caBundle);
  });

  it('lets the API server call the webhooks through the injected CA', async () => {
    // The API server picks up a CRD's new caBundle asynchronously: a refused create is not stored, so retry it.
    const created = await eventually('a create through conversion', async () => {
      const result = await kubectl.run(['create', '-f', '-'], { input: JSON.stringify({ apiVersion: 'test.opgen.dev/v1alpha1', kind: 'Shelf', metadata: { name: 'a', namespace: 'default' }, spec: { size: 3 } }) });
      if (result.code !== 0) throw new Error(result.stderr);
      return true;
    });
    expect(created).toBe(true);
    // Written as v1alpha1: converted to v1alpha2, defaulted there (matchPolicy Equivalent), stored.
    const stored = await kubectl.get('shelves.v1alpha2.test.opgen.dev', 'a', { namespace: 'default' });
    expect(stored.spec).toEqual({ replicas: 3, image: 'nginx:1.27' });
    await kubectl(['create', '-f', '-'], { input: JSON.stringify({ apiVersion: 'test.opgen.dev/v1alpha2', kind: 'Shelf', metadata: { name: 'b', namespace: 'default' }, spec: {} }) });
    expect((await kubectl.get('shelves.v1alpha2.test.opgen.dev', 'b', { namespace: 'default' })).spec).toEqual({ image: 'nginx:1.27' });
  });

  it('renews a serving certificate near its end in the Secret, and every replica serves the new one without a restart', async () => {
    const secret = (await client.get(kinds.Secret, SECRET.name, SECRET.namespace))!;
    const caKeyPem = Buffer.from(secret.data!['ca.key']!, 'base64').toString();
    // Issued 300 days ago for a year: less than a third of its life is left.
    const ageing = issueCertificate({ hosts: ['webhook-service.system.svc', '127.0.0.1'], validDays: 365, now: new Date(Date.now() - 300 * 86_400_000), issuer: { commonName: 'opgen-webhook-ca', keyPem: caKeyPem } });
    const b64 = (text: string) => Buffer.from(text).toString('base64');
    await client.update(kinds.Secret, { ...secret, data: { ...secret.data, 'tls.crt': b64(ageing.certPem), 'tls.key': b64(ageing.keyPem) } });
    const renewed = await eventually('a renewed leaf in the Secret', async () => {
      const current = (await client.get(kinds.Secret, SECRET.name, SECRET.namespace))!;
      const pem = Buffer.from(current.data!['tls.crt']!, 'base64').toString();
      return pem !== ageing.certPem && new X509Certificate(pem);
    });
    expect(new Date(renewed.validTo).getTime()).toBeGreaterThan(Date.now() + 300 * 86_400_000);
    expect(current(secret.data!['ca.crt']!)).toBe(current((await client.get(kinds.Secret, SECRET.name, SECRET.namespace))!.data!['ca.crt']!));
    for (const r of replicas) await eventually(`replica on ${r.port} serving the renewed leaf`, async () => ((await servedCertificate(r.port)).fingerprint256) === renewed.fingerprint256);
    await kubectl(['create', '-f', '-'], { input: JSON.stringify({ apiVersion: 'test.opgen.dev/v1alpha2', kind: 'Shelf', metadata: { name: 'c', namespace: 'default' }, spec: {} }) });
    expect((await kubectl.get('shelves.v1alpha2.test.opgen.dev', 'c', { namespace: 'default' })).spec).toEqual({ image: 'nginx:1.27' });
  });
});

function current(base64: string): string {
  return Buffer.from(base64, 'base64').toString();
}
