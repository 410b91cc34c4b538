import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kinds, type Client, type Kind } from '@opgen/runtime';
import type { ObjectMeta } from '@opgen/runtime/api';
import type { ControllerTest } from '../../book/snippets/widget-memory.js';
import { importBookApis, importWarnings, type BookImport } from './external-apis.js';

/** What the test uses of book/snippets/web-routes.ts, which imports files this test generates first. */
interface WebRoutesSnippet {
  startWebRoutesTest(crds: string): Promise<ControllerTest>;
  issue(client: Client, name: string, namespace: string): Promise<void>;
  HOST: string;
}
type Imported = Kind<{ metadata: ObjectMeta; spec?: Record<string, unknown> }, true>;

const chapter = readFileSync(new URL('../../book/external-apis.md', import.meta.url), 'utf8');
const NS = 'default';

let book: BookImport;
let snippet: WebRoutesSnippet;
let Certificate: Imported;
let HTTPRoute: Imported;
beforeAll(async () => {
  book = await importBookApis();
  // Loaded once the import wrote ./external/: the specifiers are not literals so that
  // `npm run typecheck` does not need the generated files (test/book/snippets.test.ts type-checks them).
  const load = (path: string) => import(new URL(path, import.meta.url).pathname) as Promise<Record<string, unknown>>;
  snippet = (await load('../../book/snippets/web-routes.ts')) as unknown as WebRoutesSnippet;
  Certificate = (await load('../../book/snippets/external/cert-manager.io/v1/certificate_types.ts')).Certificate as Imported;
  HTTPRoute = (await load('../../book/snippets/external/gateway.networking.k8s.io/v1/httproute_types.ts')).HTTPRoute as Imported;
});
afterAll(async () => book?.remove());

describe('"Working with other projects\' APIs": what the chapter shows opgen print', () => {
  it('lists the files each import writes, as opgen import crd prints them', () => {
    const shown = chapter.split('\n').filter((line) => /^(CREATE|UPDATE) /.test(line));
    expect(shown).toEqual(book.printed.flatMap((out) => out.trimEnd().split('\n')));
  });

  it('shows the imports PROJECT records, sha256 included', () => {
    const imports = /^imports:\n(?: .*\n)+/m.exec(book.project)?.[0];
    expect(imports).toContain('- file: crds/cert-manager.io_certificates.yaml');
    expect(chapter).toContain(imports);
  });

  it('quotes the warning of a construct that does not round-trip as opgen gives it', async () => {
    const { code, stderr } = await importWarnings('crds/gateway.networking.k8s.io_gateways.yaml', 'gateway-api/gateway.networking.k8s.io_gateways.yaml');
    expect(code).toBe(0);
    const first = stderr.split('\n')[0]!;
    expect(first).toMatch(/warning: .*oneOf has no marker$/);
    expect(chapter.split('\n')).toContain(first);
  });
});

describe('"Working with other projects\' APIs": the Service controller on the memory cluster with the imported CRDs', () => {
  let test: ControllerTest;
  let client: Client;

  beforeAll(async () => {
    test = await snippet.startWebRoutesTest(book.crds);
    expect(test.cluster.tier).toBe('memory');
    client = test.mgr.client;
  });
  afterAll(async () => test?.stop());

  it('applies a Certificate the Service controls, and the HTTPRoute once cert-manager made it Ready', async () => {
    await client.create(kinds.Service, { metadata: { name: 'shop', namespace: NS, annotations: { [snippet.HOST]: 'shop.example.com' } }, spec: { ports: [{ port: 8080 }] } });
    await test.cluster.runUntilIdle();
    const cert = await client.get(Certificate, 'shop', NS);
    expect(cert?.spec).toEqual({ secretName: 'shop-tls', dnsNames: ['shop.example.com'], issuerRef: { kind: 'ClusterIssuer', name: 'letsencrypt' }, privateKey: { algorithm: 'ECDSA', rotationPolicy: 'Always' } });
    expect(cert?.metadata.ownerReferences).toEqual([expect.objectContaining({ kind: 'Service', name: 'shop', controller: true })]);
    expect(await client.get(HTTPRoute, 'shop', NS)).toBeUndefined();

    // The status write reconciles the Service through .owns(Certificate).
    await snippet.issue(client, 'shop', NS);
    await test.cluster.runUntilIdle();
    const route = await client.get(HTTPRoute, 'shop', NS);
    expect(route?.spec).toMatchObject({ parentRefs: [{ name: 'public', namespace: 'gateway-system' }], hostnames: ['shop.example.com'], rules: [{ backendRefs: [{ name: 'shop', port: 8080 }] }] });
    expect(route?.metadata.ownerReferences).toEqual([expect.objectContaining({ kind: 'Service', name: 'shop', controller: true })]);
  });

  it("refuses what the imported CRDs' validation refuses: an enum value, a CEL rule", async () => {
    const metadata = { name: 'bad', namespace: NS };
    await expect(client.create(Certificate, { metadata, spec: { secretName: 'bad-tls', issuerRef: { name: 'ca' }, privateKey: { algorithm: 'DSA' } } })).rejects.toThrow(/spec\.privateKey\.algorithm: Unsupported value: "DSA"/);
    await expect(client.create(HTTPRoute, { metadata, spec: { rules: [{ backendRefs: [{ name: 'shop' }] }] } })).rejects.toThrow(/Must have port for Service reference/);
  });
});
