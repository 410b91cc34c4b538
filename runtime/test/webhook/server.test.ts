import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log/index.js';
import type { HttpServer } from '../../src/http/http-server.js';
import { selfSignedCertificate } from '../../src/certs/self-signed-cert.js';
import { defaultingHandler, forKind, validatingHandler } from '../../src/webhook/admission.js';
import { deny } from '../../src/webhook/deny.js';
import { webhookMetrics } from '../../src/webhook/metrics.js';
import { mutatePath, validatePath } from '../../src/webhook/paths.js';
import { createWebhookServer, type WebhookServer } from '../../src/webhook/server.js';
import { ShelfV1, ShelfV2, shelfV1Conversion, type ShelfV2 as Shelf } from '../fixtures/webhooks/shelf.js';
import { post } from './post.js';

const pair = selfSignedCertificate();
const registry = new Registry();
const logLines: any[] = [];
let server: WebhookServer;
let listening: HttpServer | undefined;

function review(operation: string, object: unknown, extra: Record<string, unknown> = {}, apiVersion = 'admission.k8s.io/v1') {
  return JSON.stringify({
    apiVersion,
    kind: 'AdmissionReview',
    request: {
      uid: `uid-${operation}`,
      kind: { group: 'test.opgen.dev', version: 'v1alpha2', kind: 'Shelf' },
      resource: { group: 'test.opgen.dev', version: 'v1alpha2', resource: 'shelves' },
      namespace: 'default',
      name: 'a',
      operation,
      userInfo: { username: 'alice' },
      object,
      ...extra,
    },
  });
}

const send = (path: string, body: string | Buffer, type?: string) => post(`${server.url}${path}`, pair.certPem, body, type);
const patchOf = (response: any) => JSON.parse(Buffer.from(response.patch, 'base64').toString('utf8'));

beforeAll(async () => {
  server = createWebhookServer({
    host: '127.0.0.1',
    port: 0,
    certificate: { current: pair, files: null, watch: () => () => {} },
    log: createLogger({ level: 'info', destination: { write: (line: string) => void logLines.push(JSON.parse(line)) } }),
    metrics: webhookMetrics(registry),
  });
  server.register(
    mutatePath(ShelfV2),
    forKind(
      ShelfV2,
      defaultingHandler<Shelf>((shelf) => {
        if (shelf.spec.image === 'crash') (undefined as unknown as { x: number }).x = 1;
        shelf.spec.image ??= 'nginx:1.27';
        shelf.spec.replicas ??= 1;
      }),
    ),
  );
  server.register(
    validatePath(ShelfV2),
    validatingHandler<Shelf>({
      create: (shelf) => (shelf.spec.tier ? {} : { warnings: ['no tier: the shelf gets the default one', 'x'.repeat(300)] }),
      update: (old, shelf) => {
        if ((shelf.spec.replicas ?? 0) < (old.spec.replicas ?? 0)) throw deny('replicas cannot shrink', { code: 422, reason: 'Invalid', warnings: ['scale down by deleting'] });
      },
      delete: (shelf) => {
        if (shelf.metadata?.labels?.protected) throw new Error('protected shelves cannot be deleted');
      },
    }),
  );
  server.conversions.set('test.opgen.dev/Shelf', { hub: ShelfV2, spokes: new Map([['test.opgen.dev/v1alpha1', shelfV1Conversion]]) });
  await expect(server.ready()).rejects.toThrow('not listening');
  listening = await server.start();
});
afterAll(async () => {
  await listening?.close();
});

describe('admission reviews', () => {
  it('default with a JSON Patch from the raw object that keeps fields the type does not know, and no patch when nothing changes', async () => {
    const raw = { apiVersion: 'test.opgen.dev/v1alpha2', kind: 'Shelf', metadata: { name: 'a' }, spec: { replicas: 3, unknownField: { keep: true } } };
    const { status, json } = await send(mutatePath(ShelfV2), review('CREATE', raw));
    expect(status).toBe(200);
    expect(json.apiVersion).toBe('admission.k8s.io/v1');
    expect(json.response).toMatchObject({ uid: 'uid-CREATE', allowed: true, patchType: 'JSONPatch' });
    expect(patchOf(json.response)).toEqual([{ op: 'add', path: '/spec/image', value: 'nginx:1.27' }]);
    const unchanged = await send(mutatePath(ShelfV2), review('UPDATE', { ...raw, spec: { replicas: 1, image: 'x' } }));
    expect(unchanged.json.response).toEqual({ uid: 'uid-UPDATE', allowed: true });
  });

  it('answer a v1beta1 review in v1beta1, skip defaulting on DELETE and allow CONNECT without a call', async () => {
    const beta = await send(mutatePath(ShelfV2), review('CREATE', { spec: {} }, {}, 'admission.k8s.io/v1beta1'));
    expect(beta.json.apiVersion).toBe('admission.k8s.io/v1beta1');
    expect(patchOf(beta.json.response)).toHaveLength(2);
    const deletion = await send(mutatePath(ShelfV2), review('DELETE', null, { oldObject: { spec: {} } }));
    expect(deletion.json.response).toEqual({ uid: 'uid-DELETE', allowed: true });
    const connect = await send(validatePath(ShelfV2), review('CONNECT', null));
    expect(connect.json.response).toEqual({ uid: 'uid-CONNECT', allowed: true });
  });

  it('return warnings on allow and deny, cut to 120 characters; deny keeps its code, any other error is 403', async () => {
    const created = await send(validatePath(ShelfV2), review('CREATE', { spec: {} }));
    expect(created.json.response.allowed).toBe(true);
    expect(created.json.response.warnings[0]).toBe('no tier: the shelf gets the default one');
    expect(created.json.response.warnings[1]).toHaveLength(120);
    const shrunk = await send(validatePath(ShelfV2), review('UPDATE', { spec: { replicas: 1 } }, { oldObject: { spec: { replicas: 2 } } }));
    expect(shrunk.status).toBe(200);
    expect(shrunk.json.response).toEqual({
      uid: 'uid-UPDATE',
      allowed: false,
      status: { code: 422, message: 'replicas cannot shrink', reason: 'Invalid' },
      warnings: ['scale down by deleting'],
    });
    const deleted = await send(validatePath(ShelfV2), review('DELETE', null, { oldObject: { metadata: { labels: { protected: 'yes' } }, spec: {} } }));
    expect(deleted.json.response.status).toEqual({ code: 403, message: 'protected shelves cannot be deleted', reason: 'Forbidden' });
    expect(logLines).toContainEqual(
      expect.objectContaining({ msg: 'Denied', uid: 'uid-DELETE', kind: 'Shelf', namespace: 'default', name: 'a', user: 'alice', operation: 'DELETE', code: 403 }),
    );
  });

  it('answer a bug in a handler with 500 in the review and count it as a panic', async () => {
    const before = (await registry.getSingleMetric('controller_runtime_webhook_panics_total')!.get()).values[0]?.value ?? 0;
    const { status, json } = await send(mutatePath(ShelfV2), review('CREATE', { spec: { image: 'crash' } }));
    expect(status).toBe(200);
    expect(json.response).toMatchObject({ allowed: false, status: { code: 500, reason: 'InternalError' } });
    const after = (await registry.getSingleMetric('controller_runtime_webhook_panics_total')!.get()).values[0]?.value;
    expect(after).toBe(before + 1);
  });

  it('refuse a review of another kind than the webhook was registered for, saying so', async () => {
    const other = JSON.parse(review('CREATE', { spec: {} }));
    other.request.kind = { group: 'test.opgen.dev', version: 'v1alpha2', kind: 'Book' };
    const { status, json } = await send(mutatePath(ShelfV2), JSON.stringify(other));
    expect(status).toBe(200);
    expect(json.response).toMatchObject({
      uid: 'uid-CREATE',
      allowed: false,
      status: { code: 400, reason: 'BadRequest', message: 'this webhook serves Shelf.test.opgen.dev, but the API server sent Book.test.opgen.dev: check the rules of the webhook configuration that points at it' },
    });
    expect(json.response.patch).toBeUndefined();
  });

  it('refuse malformed reviews with 400, other content types with 400, bodies over 7 MiB with 413, and keep serving', async () => {
    expect((await send(mutatePath(ShelfV2), '{not json')).status).toBe(400);
    expect((await send(mutatePath(ShelfV2), JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview' }))).status).toBe(400);
    expect((await send(mutatePath(ShelfV2), review('CREATE', {}, {}, 'admission.k8s.io/v2'))).status).toBe(400);
    const yaml = await send(mutatePath(ShelfV2), review('CREATE', {}), 'application/yaml');
    expect(yaml).toMatchObject({ status: 400, text: 'contentType=application/yaml, expected application/json\n' });
    const big = await send(mutatePath(ShelfV2), Buffer.alloc(7 * 1024 * 1024 + 1, 0x20));
    expect(big.status).toBe(413);
    expect((await send('/mutate-nothing', review('CREATE', {}))).status).toBe(404);
    expect((await send(mutatePath(ShelfV2), review('CREATE', { spec: {} }))).json.response.allowed).toBe(true);
  });

  it('count requests by code and admission responses by allowed and code', async () => {
    const text = await registry.metrics();
    expect(text).toContain(`controller_runtime_webhook_requests_total{webhook="${mutatePath(ShelfV2)}",code="200"}`);
    expect(text).toContain(`controller_runtime_webhook_requests_total{webhook="${mutatePath(ShelfV2)}",code="413"} 1`);
    expect(text).toContain(`controller_runtime_webhook_admission_responses_total{webhook="${validatePath(ShelfV2)}",allowed="false",code="422"} 1`);
    expect(text).toContain(`controller_runtime_webhook_admission_responses_total{webhook="${validatePath(ShelfV2)}",allowed="true",code="200"}`);
    expect(text).toContain(`controller_runtime_webhook_latency_seconds_count{webhook="${validatePath(ShelfV2)}"}`);
    expect(text).toContain(`controller_runtime_webhook_requests_in_flight{webhook="${validatePath(ShelfV2)}"} 0`);
  });

  it('is ready once the listener answers a TLS handshake with its certificate', async () => {
    await expect(server.ready()).resolves.toBeUndefined();
  });
});

describe('conversion reviews', () => {
  const convert = (desiredAPIVersion: string, objects: unknown[], apiVersion = 'apiextensions.k8s.io/v1') =>
    send('/convert', JSON.stringify({ apiVersion, kind: 'ConversionReview', request: { uid: 'c1', desiredAPIVersion, objects } }));
  const v1 = { apiVersion: 'test.opgen.dev/v1alpha1', kind: 'Shelf', metadata: { name: 'a', uid: 'u1' }, spec: { size: 2, image: 'i' } };

  it('convert spokes through the hub and back, keeping a hub-only field in the stash', async () => {
    const up = await convert('test.opgen.dev/v1alpha2', [v1]);
    expect(up.json).toMatchObject({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', response: { uid: 'c1', result: { status: 'Success' } } });
    expect(up.json.response.convertedObjects).toEqual([{ apiVersion: 'test.opgen.dev/v1alpha2', kind: 'Shelf', metadata: { name: 'a', uid: 'u1' }, spec: { replicas: 2, image: 'i' } }]);
    const back = await convert('test.opgen.dev/v1alpha1', up.json.response.convertedObjects);
    expect(back.json.response.convertedObjects).toEqual([v1]);
    const hub = { apiVersion: 'test.opgen.dev/v1alpha2', kind: 'Shelf', metadata: { name: 'a' }, spec: { replicas: 1, tier: 'gold' } };
    const down = (await convert('test.opgen.dev/v1alpha1', [hub], 'apiextensions.k8s.io/v1beta1')).json;
    expect(down.apiVersion).toBe('apiextensions.k8s.io/v1beta1');
    expect(down.response.convertedObjects[0].metadata.annotations).toEqual({ 'conversion.opgen.dev/stash': '{"tier":"gold"}' });
    expect((await convert('test.opgen.dev/v1alpha2', down.response.convertedObjects)).json.response.convertedObjects).toEqual([hub]);
  });

  it('count a bug in a conversion as a panic and fail the review with its message', async () => {
    const panics = async () => (await registry.getSingleMetric('controller_runtime_webhook_panics_total')!.get()).values[0]?.value ?? 0;
    const before = await panics();
    const { json } = await convert('test.opgen.dev/v1alpha2', [{ ...v1, spec: undefined }]);
    expect(json.response.result.status).toBe('Failure');
    expect(json.response.result.message).toMatch(/Cannot destructure|undefined/);
    expect(await panics()).toBe(before + 1);
  });

  it('fail the whole review on one failed object, naming a changed metadata field', async () => {
    const registryBackup = server.conversions.get('test.opgen.dev/Shelf')!;
    server.conversions.set('test.opgen.dev/Shelf', {
      hub: ShelfV2,
      spokes: new Map([[`test.opgen.dev/${ShelfV1.version}`, { ...shelfV1Conversion, toHub: (s: any) => ({ ...shelfV1Conversion.toHub(s), metadata: { ...s.metadata, name: s.metadata.name === 'b' ? 'renamed' : s.metadata.name } }) }]]),
    });
    try {
      const { json } = await convert('test.opgen.dev/v1alpha2', [v1, { ...v1, metadata: { name: 'b' } }]);
      expect(json.response).toEqual({
        uid: 'c1',
        convertedObjects: [],
        result: { status: 'Failure', message: 'converting Shelf b from test.opgen.dev/v1alpha1 to test.opgen.dev/v1alpha2 changed metadata.name: only labels and annotations may change' },
      });
    } finally {
      server.conversions.set('test.opgen.dev/Shelf', registryBackup);
    }
  });
});
