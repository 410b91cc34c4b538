import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, kinds, type Client } from '../../runtime/src/client/index.js';
import { controller } from '../../runtime/src/controller/index.js';
import { createManager, type Manager } from '../../runtime/src/manager/index.js';
import { startTestCluster, type TestCluster, type TestTier } from '../../runtime/src/testing/index.js';
import type { Kind, ObjectMeta } from '../../runtime/src/api/index.js';
import { eventually } from '../../runtime/test/fixtures/eventually.js';
import { opgenOk } from '../scaffold/run.js';

// A project imports cert-manager's Certificate CRD and owns Certificates in a controller:
// on both tiers the CRD installed is the imported one (config/crd/external/, where the
// scaffolded tests of external kinds look), so its real validation applies.

const repo = new URL('../../', import.meta.url).pathname;
const certificates = new URL('../fixtures/corpus/cert-manager/cert-manager.io_certificates.yaml', import.meta.url).pathname;
const NS = 'default';

interface Certificate {
  metadata: ObjectMeta;
  spec?: { secretName: string; issuerRef: { name: string }; dnsNames?: string[]; privateKey?: { algorithm?: string } };
}

let work = '';
let dir = '';
let Certificate: Kind<Certificate, true>;
beforeAll(async () => {
  // Inside the repository (a git-ignored .opgen-tmp-* folder), so the generated files resolve @opgen/runtime.
  work = await mkdtemp(join(repo, '.opgen-tmp-import-'));
  dir = join(work, 'issuer-operator');
  await mkdir(dir);
  await opgenOk(dir, 'init', '--domain', 'example.com', '--skip-install');
  await opgenOk(dir, 'import', 'crd', certificates);
  const created = await opgenOk(dir, 'create', 'api', '--group', 'cert-manager', '--external-api-domain', 'io', '--version', 'v1', '--kind', 'Certificate', '--external-api-path', 'src/external/cert-manager.io/v1/certificate_types.ts');
  // create api keeps the imported handle and its controller uses it.
  expect(created).toContain('SKIP   src/external/cert-manager.io/v1/certificate_types.ts');
  ({ Certificate } = (await import(join(dir, 'src/external/cert-manager.io/v1/certificate_types.ts'))) as { Certificate: Kind<Certificate, true> });
});
afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe.each<TestTier>(['memory', 'controlplane'])('a controller owning imported Certificates (%s tier)', (tier) => {
  let test: TestCluster;
  let mgr: Manager;
  let running: Promise<void>;
  let client: Client;

  beforeAll(async () => {
    test = await startTestCluster({ tier, crds: join(dir, 'config/crd/external') });
    client = createClient(test.cluster, { fieldManager: 'test' });
    mgr = createManager({ cluster: test.cluster, handleSignals: false, logLevel: 'silent' });
    // A Service with a host annotation gets a Certificate for that host.
    controller(mgr)
      .for(kinds.Service)
      .owns(Certificate)
      .reconcile(async (svc, ctx) => {
        const host = svc.metadata.annotations?.host;
        if (host) await ctx.apply(Certificate, { metadata: { name: svc.metadata.name }, spec: { secretName: `${svc.metadata.name}-tls`, issuerRef: { name: 'ca' }, dnsNames: [host] } });
      });
    running = mgr.start();
    await mgr.elected();
  }, 300_000);

  afterAll(async () => {
    mgr?.stop();
    await running;
    await test?.stop();
  });

  it('applies a Certificate the Service controls', async () => {
    await client.create(kinds.Service, { metadata: { name: 'web', namespace: NS, annotations: { host: 'web.example.com' } }, spec: { ports: [{ port: 443 }] } });
    if (tier === 'memory') await test.runUntilIdle();
    const cert = await eventually('the Certificate of web', () => client.get(Certificate, 'web', NS), 120_000);
    expect(cert.spec).toEqual({ secretName: 'web-tls', issuerRef: { name: 'ca' }, dnsNames: ['web.example.com'] });
    expect(cert.metadata.ownerReferences).toEqual([expect.objectContaining({ kind: 'Service', name: 'web', controller: true })]);
  });

  it("refuses a Certificate the imported CRD's validation rejects", async () => {
    const bad = { metadata: { name: 'bad', namespace: NS }, spec: { secretName: 'bad-tls', issuerRef: { name: 'ca' }, privateKey: { algorithm: 'DSA' } } };
    await expect(client.create(Certificate, bad)).rejects.toThrow(/spec\.privateKey\.algorithm: Unsupported value: "DSA"/);
  });
});
