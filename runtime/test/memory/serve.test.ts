import { readFileSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveMemoryCluster, type ServedMemoryCluster } from '../../src/testing/index.js';
import { toHttpRequest } from '../../src/testing/memory/http-handler.js';

// The memory cluster behind real HTTPS: what a request on the wire becomes, and what comes
// back (codes, bodies, a watch as JSON lines), as kubectl and an operator process see it.

const crd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.example.com' },
  spec: {
    group: 'example.com',
    names: { kind: 'Widget', listKind: 'WidgetList', plural: 'widgets', singular: 'widget', shortNames: ['wd'] },
    scope: 'Namespaced',
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        subresources: { status: {} },
        schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer', maximum: 10 } } }, status: { type: 'object', properties: { ready: { type: 'boolean' } } } } } },
      },
    ],
  },
};

let served: ServedMemoryCluster;
let scratch: string;

beforeAll(async () => {
  served = await serveMemoryCluster({ crds: [crd] });
  scratch = mkdtempSync(join(tmpdir(), 'opgen-serve-'));
});
afterAll(async () => {
  await served.close();
  rmSync(scratch, { recursive: true, force: true });
});

interface Answer {
  code: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: any;
}

/** One HTTPS request trusting only the served certificate, with the token unless `token` is given. */
function call(method: string, path: string, options: { body?: string; contentType?: string; token?: string | null; accept?: string } = {}): Promise<Answer> {
  const headers: Record<string, string> = {};
  const token = options.token === undefined ? served.token : options.token;
  if (token !== null) headers.authorization = `Bearer ${token}`;
  if (options.contentType) headers['content-type'] = options.contentType;
  if (options.accept) headers.accept = options.accept;
  return new Promise((resolve, reject) => {
    const req = httpsRequest(`${served.url}${path}`, { method, headers, ca: served.caPem }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ code: res.statusCode ?? 0, headers: res.headers, text, json: text ? JSON.parse(text) : undefined }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

const widgets = '/apis/example.com/v1/namespaces/default/widgets';

describe('the memory cluster served over HTTPS', () => {
  it('refuses a request without the bearer token with 401', async () => {
    expect((await call('GET', '/api/v1/namespaces', { token: null })).code).toBe(401);
    expect((await call('GET', '/api/v1/namespaces', { token: 'wrong' })).code).toBe(401);
    expect((await call('GET', '/api/v1/namespaces')).code).toBe(200);
  });

  it('creates from a JSON body and answers the API server codes and Status bodies', async () => {
    const body = JSON.stringify({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'a' }, spec: { size: 1 } });
    const created = await call('POST', widgets, { body, contentType: 'application/json' });
    expect(created.code).toBe(201);
    expect(created.headers['content-type']).toBe('application/json');
    expect(created.json.metadata.uid).toBeTruthy();
    const again = await call('POST', widgets, { body, contentType: 'application/json' });
    expect(again.code).toBe(409);
    expect(again.json).toMatchObject({ kind: 'Status', reason: 'AlreadyExists' });
    const missing = await call('GET', `${widgets}/nope`);
    expect(missing.code).toBe(404);
    expect(missing.json.reason).toBe('NotFound');
    const invalid = await call('POST', widgets, { body: JSON.stringify({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'big' }, spec: { size: 11 } }), contentType: 'application/json' });
    expect(invalid.code).toBe(422);
    expect(invalid.json.message).toContain('spec.size');
    const garbled = await call('POST', widgets, { body: '{not json', contentType: 'application/json' });
    expect(garbled.code).toBe(400);
  });

  it('passes the query on: dry run, label selectors and field managers', async () => {
    const body = JSON.stringify({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'dry', labels: { tier: 'x' } } });
    expect((await call('POST', `${widgets}?dryRun=All`, { body, contentType: 'application/json' })).code).toBe(201);
    expect((await call('GET', `${widgets}/dry`)).code).toBe(404);
    await call('POST', `${widgets}?fieldManager=tester`, { body, contentType: 'application/json' });
    const selected = await call('GET', `${widgets}?labelSelector=${encodeURIComponent('tier=x')}`);
    expect(selected.json.items.map((w: any) => w.metadata.name)).toEqual(['dry']);
    expect(selected.json.items[0].metadata.managedFields[0].manager).toBe('tester');
  });

  it('reads each patch type by its content type, server-side apply from YAML', async () => {
    await call('POST', widgets, { body: JSON.stringify({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'p' }, spec: { size: 1 } }), contentType: 'application/json' });
    const merged = await call('PATCH', `${widgets}/p`, { body: '{"spec":{"size":2}}', contentType: 'application/merge-patch+json' });
    expect(merged.json.spec.size).toBe(2);
    const patched = await call('PATCH', `${widgets}/p`, { body: '[{"op":"replace","path":"/spec/size","value":3}]', contentType: 'application/json-patch+json' });
    expect(patched.json.spec.size).toBe(3);
    // Custom resources take no strategic merge patch: the memory server's 415 comes through.
    expect((await call('PATCH', `${widgets}/p`, { body: '{"spec":{"size":4}}', contentType: 'application/strategic-merge-patch+json' })).code).toBe(415);
    const applied = await call('PATCH', `${widgets}/p?fieldManager=yaml-writer&force=true`, {
      body: 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: p\nspec:\n  size: 5\n',
      contentType: 'application/apply-patch+yaml',
    });
    expect(applied.code).toBe(200);
    expect(applied.json.spec.size).toBe(5);
    expect(applied.json.metadata.managedFields.map((f: any) => f.manager)).toContain('yaml-writer');
    const status = await call('PATCH', `${widgets}/p/status`, { body: '{"status":{"ready":true}}', contentType: 'application/merge-patch+json' });
    expect(status.json.status.ready).toBe(true);
    const cm = '/api/v1/namespaces/default/configmaps';
    await call('POST', cm, { body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: '1' } }), contentType: 'application/json' });
    const strategic = await call('PATCH', `${cm}/c`, { body: '{"data":{"b":"2"}}', contentType: 'application/strategic-merge-patch+json' });
    expect(strategic.json.data).toEqual({ a: '1', b: '2' });
  });

  it('streams a watch as chunked JSON lines until the client goes', async () => {
    const events: any[] = [];
    const done = new Promise<void>((resolve, reject) => {
      const req = httpsRequest(`${served.url}${widgets}?watch=true&resourceVersion=0`, { headers: { authorization: `Bearer ${served.token}` }, ca: served.caPem }, (res) => {
        expect(res.statusCode).toBe(200);
        expect(res.headers['transfer-encoding']).toBe('chunked');
        let buffer = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buffer += chunk;
          const lines = buffer.split('\n');
          buffer = lines.pop()!;
          for (const line of lines) events.push(JSON.parse(line));
          if (events.some((e) => e.type === 'DELETED')) {
            req.destroy();
            resolve();
          }
        });
      });
      req.on('error', (error) => (events.some((e) => e.type === 'DELETED') ? resolve() : reject(error)));
      req.end();
    });
    await call('POST', widgets, { body: JSON.stringify({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } }), contentType: 'application/json' });
    await call('DELETE', `${widgets}/w`);
    await done;
    expect(events.filter((e) => e.object.metadata.name === 'w').map((e) => e.type)).toEqual(['ADDED', 'DELETED']);
  });

  it('answers discovery and the OpenAPI v3 documents kubectl reads', async () => {
    const resources = await call('GET', '/apis/example.com/v1');
    expect(resources.json.resources.find((r: any) => r.name === 'widgets').shortNames).toEqual(['wd']);
    const root = await call('GET', '/openapi/v3');
    expect(root.json.paths['apis/example.com/v1'].serverRelativeURL).toBe('/openapi/v3/apis/example.com/v1');
    const document = (await call('GET', '/openapi/v3/apis/example.com/v1')).json;
    const patch = document.paths['/apis/example.com/v1/namespaces/{namespace}/widgets/{name}'].patch;
    expect(patch['x-kubernetes-group-version-kind']).toEqual({ group: 'example.com', version: 'v1', kind: 'Widget' });
    expect(patch.parameters.map((p: any) => p.name)).toContain('fieldValidation');
    expect(document.components.schemas['com.example.v1.Widget'].properties.spec.properties.size.type).toBe('integer');
    expect((await call('GET', '/openapi/v3/apis/nothing.example.com/v1')).code).toBe(404);
  });

  it('stamps objects with the wall clock, not a clock stopped at start', async () => {
    const before = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const created = await call('POST', widgets, { body: JSON.stringify({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'late' } }), contentType: 'application/json' });
    expect(Date.parse(created.json.metadata.creationTimestamp)).toBeGreaterThan(before - 1000);
    expect(Date.parse(created.json.metadata.creationTimestamp)).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 1000);
  });

  it('writes a kubeconfig only its owner can read, naming the server, its CA and the token', () => {
    const path = join(scratch, 'kubeconfig');
    served.writeKubeConfig(path);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const config = parseYaml(readFileSync(path, 'utf8'));
    expect(config.clusters[0].cluster.server).toBe(served.url);
    expect(Buffer.from(config.clusters[0].cluster['certificate-authority-data'], 'base64').toString()).toBe(served.caPem);
    expect(config.users[0].user.token).toBe(served.token);
  });
});

describe('a request on the wire as the memory server reads it', () => {
  it('splits path and query, keeps content type and Accept', () => {
    const request = toHttpRequest(
      { method: 'PATCH', url: '/apis/example.com/v1/namespaces/a/widgets/b?fieldManager=m&force=true&dryRun=All', headers: { 'content-type': 'application/merge-patch+json', accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json' } },
      '{"spec":{"size":1}}',
    );
    expect(request).toEqual({
      method: 'PATCH',
      path: '/apis/example.com/v1/namespaces/a/widgets/b',
      query: { fieldManager: 'm', force: 'true', dryRun: 'All' },
      body: { spec: { size: 1 } },
      contentType: 'application/merge-patch+json',
      accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json',
    });
  });

  it('parses an apply patch as YAML and anything else as JSON, an empty body as none', () => {
    expect(toHttpRequest({ method: 'PATCH', url: '/x', headers: { 'content-type': 'application/apply-patch+yaml' } }, 'a: 1\nb: [x]\n').body).toEqual({ a: 1, b: ['x'] });
    expect(toHttpRequest({ method: 'GET', url: '/x', headers: {} }, '').body).toBeUndefined();
    expect(() => toHttpRequest({ method: 'POST', url: '/x', headers: { 'content-type': 'application/json' } }, 'a: 1')).toThrow(/not JSON/);
  });
});
