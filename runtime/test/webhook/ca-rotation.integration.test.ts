import { X509Certificate } from 'node:crypto';
import { KubernetesObjectApi, type KubernetesObject } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, kinds, type Client } from '../../src/client/index.js';
import { createManager, type Manager } from '../../src/manager/index.js';
import { issueCertificate } from '../../src/certs/self-signed-cert.js';
import { freePort } from '../../src/testing/ports.js';
import { installCRDs, kubectlFor, startControlPlane, type ControlPlane } from '../../src/testing/index.js';
import { serveWebhooks, webhook } from '../../src/webhook/index.js';
import { eventually } from '../fixtures/eventually.js';
import { SHELF_CRD, ShelfV2 } from '../fixtures/webhooks/shelf.js';
import { servedCertificate } from './served-certificate.js';

const SECRET = { namespace: 'default', name: 'webhook-server-cert' };
const HOSTS = ['webhook-service.system.svc', '127.0.0.1'];
const DAY_MS = 86_400_000;
const b64 = (text: string) => Buffer.from(text).toString('base64');
const pemOf = (data: Record<string, string> | undefined, key: string) => Buffer.from(data?.[key] ?? '', 'base64').toString();

describe('a CA rotation of the built-in certificates', () => {
  let cp: ControlPlane;
  let client: Client;
  let ageingCa: { certPem: string; keyPem: string };
  const replicas: Array<{ mgr: Manager; running: Promise<void>; port: number }> = [];

  beforeAll(async () => {
    cp = await startControlPlane();
    client = createClient(cp.kubeConfig);
    await installCRDs(cp.kubeConfig, SHELF_CRD);
    // As a previous run left it: a CA with less than a third of its life left, a fresh leaf, the CA injected.
    ageingCa = issueCertificate({ ca: true, commonName: 'opgen-webhook-ca', validDays: 3650, now: new Date(Date.now() - 3000 * DAY_MS) });
    const leaf = issueCertificate({ hosts: HOSTS, issuer: { commonName: 'opgen-webhook-ca', keyPem: ageingCa.keyPem } });
    await client.create(kinds.Secret, {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: SECRET,
      data: { 'ca.crt': b64(ageingCa.certPem), 'ca.key': b64(ageingCa.keyPem), 'tls.crt': b64(leaf.certPem), 'tls.key': b64(leaf.keyPem) },
    });
    const ports = [await freePort(), await freePort()];
    await kubectlFor(cp).apply({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'MutatingWebhookConfiguration',
      metadata: { name: 'shelf-mutating' },
      webhooks: [
        {
          name: 'mshelf.test.opgen.dev',
          clientConfig: { url: `https://127.0.0.1:${ports[0]}/mutate-test-opgen-dev-v1alpha2-shelf`, caBundle: b64(ageingCa.certPem) },
          rules: [{ apiGroups: ['test.opgen.dev'], apiVersions: ['v1alpha2'], operations: ['CREATE'], resources: ['shelves'] }],
          sideEffects: 'None',
          admissionReviewVersions: ['v1'],
          failurePolicy: 'Fail',
        },
      ],
    });
    for (const port of ports) {
      const mgr = createManager({ kubeConfig: cp.kubeConfig, handleSignals: false, logLevel: 'silent' });
      serveWebhooks(mgr, {
        host: '127.0.0.1',
        port,
        // The overlap starts with the replicas, before the test's first call: it must outlast a slow
        // first create on a loaded machine so that calls land while both CAs are trusted.
        certificate: { builtIn: { secret: SECRET, hosts: HOSTS, mutatingWebhookConfigurations: ['shelf-mutating'], refreshMs: 200, caOverlapMs: 15_000 } },
      });
      webhook(mgr).for(ShelfV2).default((shelf) => {
        shelf.spec.image ??= 'nginx:1.27';
      });
      replicas.push({ mgr, running: mgr.start(), port });
    }
  });
  afterAll(async () => {
    for (const r of replicas) r.mgr.stop();
    await Promise.all(replicas.map((r) => r.running));
    await cp?.stop();
  });

  it('trusts the next CA before it signs, keeps the old one trusted, and loses no request on the way', async () => {
    for (const r of replicas) await eventually(`replica on ${r.port} listening`, () => servedCertificate(r.port));
    const api = KubernetesObjectApi.makeApiClient(cp.kubeConfig);
    const failures: string[] = [];
    // Admitted calls by phase: while both CAs are trusted and the old one signs, then after the new one signs.
    const admitted = { overlap: 0, rotated: 0 };
    let phase = 'overlap' as keyof typeof admitted;
    const calls = (async () => {
      // Continuous creates through the API server while the replicas rotate, and a little after.
      for (let i = 0; phase !== 'rotated' || admitted.rotated < 5; i++) {
        try {
          const shelf = (await api.create({ apiVersion: 'test.opgen.dev/v1alpha2', kind: 'Shelf', metadata: { name: `s${i}`, namespace: 'default' }, spec: {} } as KubernetesObject)) as { spec?: { image?: string } };
          if (shelf.spec?.image === 'nginx:1.27') admitted[phase]++;
          else failures.push(`s${i} was not defaulted`);
        } catch (error) {
          failures.push(`s${i}: ${(error as Error).message.split('\n').slice(0, 3).join(' ')}`);
        }
      }
    })();

    const next = await eventually('the next CA in the Secret and in the caBundle', async () => {
      const secret = await client.get(kinds.Secret, SECRET.name, SECRET.namespace);
      const nextCa = pemOf(secret?.data, 'ca-next.crt');
      const caBundle = (await kubectlFor(cp).get('mutatingwebhookconfiguration', 'shelf-mutating')).webhooks[0].clientConfig.caBundle;
      return nextCa !== '' && caBundle === b64(`${ageingCa.certPem}${nextCa}`) && nextCa;
    });
    const newCa = new X509Certificate(next);
    await eventually('every replica serving a leaf of the new CA', async () => {
      for (const r of replicas) if (!(await servedCertificate(r.port)).verify(newCa.publicKey)) return false;
      return true;
    }, 45_000);
    const secret = await client.get(kinds.Secret, SECRET.name, SECRET.namespace);
    expect(pemOf(secret?.data, 'ca.crt')).toBe(next);
    expect(pemOf(secret?.data, 'ca-previous.crt')).toBe(ageingCa.certPem);
    expect(secret?.data?.['ca-next.crt']).toBeUndefined();
    const caBundle = (await kubectlFor(cp).get('mutatingwebhookconfiguration', 'shelf-mutating')).webhooks[0].clientConfig.caBundle;
    expect(caBundle).toBe(b64(`${next}${ageingCa.certPem}`));
    phase = 'rotated';
    await calls;
    expect(failures).toEqual([]);
    expect(admitted.overlap).toBeGreaterThan(0);
    expect(admitted.rotated).toBe(5);
  });
});
