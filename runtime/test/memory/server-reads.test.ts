import type { Readable } from 'node:stream';
import { afterEach, describe, expect, test } from 'vitest';
import { createMemoryCluster, type MemoryCluster } from '../../src/testing/memory/cluster.js';
import { watchOnce, type WatchEvent } from '../../src/cache/watch.js';
import { listAll } from '../../src/rest/list.js';
import { ConfigMap } from '../../src/client/kinds.js';
import { api, statusOf, widgetCRD } from './support.js';

let memory: MemoryCluster;
afterEach(() => memory?.close());

const CM = '/api/v1/namespaces/default/configmaps';

async function start(options: { historySize?: number; crds?: object[] } = {}) {
  memory = await createMemoryCluster({ crds: (options.crds ?? [widgetCRD({ selectableFields: ['.spec.color'] })]) as never, historySize: options.historySize });
  return api(memory.transport);
}

/** Reads watch events from a stream until `count` arrived or it ended. */
async function events(stream: Readable, count: number): Promise<{ type: string; object: any }[]> {
  const out: { type: string; object: any }[] = [];
  let pending = '';
  stream.setEncoding('utf8');
  for await (const chunk of stream) {
    pending += chunk;
    let newline: number;
    while ((newline = pending.indexOf('\n')) >= 0) {
      out.push(JSON.parse(pending.slice(0, newline)));
      pending = pending.slice(newline + 1);
    }
    if (out.length >= count) break;
  }
  stream.destroy();
  return out;
}

describe('list', () => {
  test('label selectors, equality- and set-based', async () => {
    const a = await start();
    await a.post(CM, { metadata: { name: 'a', labels: { app: 'web', tier: 'front' } } });
    await a.post(CM, { metadata: { name: 'b', labels: { app: 'db' } } });
    await a.post(CM, { metadata: { name: 'c' } });
    const names = async (labelSelector: string) => (await a.get(CM, { labelSelector })).items.map((i: any) => i.metadata.name);
    expect(await names('app=web')).toEqual(['a']);
    expect(await names('app!=web')).toEqual(['b', 'c']);
    expect(await names('app in (web,db)')).toEqual(['a', 'b']);
    expect(await names('app notin (web)')).toEqual(['b', 'c']);
    expect(await names('tier')).toEqual(['a']);
    expect(await names('!app')).toEqual(['c']);
    expect(await names('app,app notin (db)')).toEqual(['a']);
  });

  test('field selectors on metadata and CRD selectableFields; an unsupported field is 400 with the API server message', async () => {
    const a = await start();
    await a.post(CM, { metadata: { name: 'a' } });
    await a.post(CM, { metadata: { name: 'b' } });
    expect((await a.get(CM, { fieldSelector: 'metadata.name=b' })).items.map((i: any) => i.metadata.name)).toEqual(['b']);
    expect((await a.get('/api/v1/configmaps', { fieldSelector: 'metadata.namespace!=default' })).items).toEqual([]);
    expect(await statusOf(a.get(CM, { fieldSelector: 'data.x=1' }))).toMatchObject({ code: 400, reason: 'BadRequest', message: '"data.x" is not a known field selector: only "metadata.name", "metadata.namespace"' });
    const widgets = '/apis/example.com/v1/namespaces/default/widgets';
    await a.post(widgets, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'red' }, spec: { color: 'red' } });
    await a.post(widgets, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'blue' }, spec: { color: 'blue' } });
    expect((await a.get(widgets, { fieldSelector: 'spec.color=blue' })).items.map((i: any) => i.metadata.name)).toEqual(['blue']);
    // A CRD with selectable fields answers with its own field label conversion's message.
    expect(await statusOf(a.get(widgets, { fieldSelector: 'spec.size=1' }))).toMatchObject({ code: 400, message: 'field label not supported: spec.size' });
  });

  test('limit and continue page through one snapshot; listAll reads every page; built-in list items carry no apiVersion/kind', async () => {
    const a = await start();
    for (let i = 0; i < 5; i++) await a.post(CM, { metadata: { name: `cm-${i}` } });
    const first = await a.get(CM, { limit: 2 });
    expect(first.items.map((i: any) => i.metadata.name)).toEqual(['cm-0', 'cm-1']);
    expect(first.items[0].apiVersion).toBeUndefined();
    expect(first.metadata.remainingItemCount).toBe(3);
    await a.post(CM, { metadata: { name: 'cm-00' } });
    await a.delete(`${CM}/cm-4`);
    const second = await a.get(CM, { limit: 10, continue: first.metadata.continue });
    // The snapshot of the first page: cm-00 is not in it, cm-4 still is.
    expect(second.items.map((i: any) => i.metadata.name)).toEqual(['cm-2', 'cm-3', 'cm-4']);
    expect(second.metadata.resourceVersion).toBe(first.metadata.resourceVersion);
    const all = await listAll(memory.transport, ConfigMap, { namespace: 'default' });
    expect(all.items.map((i) => i.metadata?.name)).toEqual(['cm-0', 'cm-00', 'cm-1', 'cm-2', 'cm-3']);
    expect(all.items[0]!.kind).toBe('ConfigMap');
  });

  test('a continue token older than the kept history is 410 Expired', async () => {
    const a = await start({ historySize: 2 });
    for (let i = 0; i < 3; i++) await a.post(CM, { metadata: { name: `cm-${i}` } });
    const first = await a.get(CM, { limit: 1 });
    for (let i = 0; i < 3; i++) await a.post(CM, { metadata: { name: `more-${i}` } });
    const gone = await statusOf(a.get(CM, { limit: 1, continue: first.metadata.continue }));
    expect(gone).toMatchObject({ code: 410, reason: 'Expired' });
    expect(gone.message).toMatch(/^The provided continue parameter is too old/);
  });

  test('metadata-only reads answer PartialObjectMetadata and PartialObjectMetadataList', async () => {
    const a = await start();
    await a.post(CM, { metadata: { name: 'a', labels: { x: 'y' } }, data: { big: 'value' } });
    const one = await a.get(`${CM}/a`, undefined, 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json');
    expect(one).toMatchObject({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: { name: 'a', labels: { x: 'y' } } });
    expect(one.data).toBeUndefined();
    const list = await a.get(CM, undefined, 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json');
    expect(list.kind).toBe('PartialObjectMetadataList');
    expect(list.items[0].data).toBeUndefined();
    expect(await statusOf(a.get(`${CM}/a`, undefined, 'application/json;as=Table;g=meta.k8s.io;v=v1'))).toMatchObject({ code: 406, reason: 'NotAcceptable' });
  });
});

describe('watch', () => {
  test('from a resourceVersion: the changes after it, in order, with DELETED carrying the deletion resourceVersion', async () => {
    const a = await start();
    const start0 = await a.post(CM, { metadata: { name: 'a' } });
    await a.put(`${CM}/a`, { ...start0, data: { x: '1' } });
    await a.post(CM, { metadata: { name: 'b' } });
    await a.delete(`${CM}/a`);
    const stream = await memory.transport.stream({ method: 'GET', path: CM, query: { watch: 1, resourceVersion: start0.metadata.resourceVersion } });
    const seen = await events(stream, 3);
    expect(seen.map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual(['MODIFIED a', 'ADDED b', 'DELETED a']);
    const rvs = seen.map((e) => Number(e.object.metadata.resourceVersion));
    expect([...rvs].sort((x, y) => x - y)).toEqual(rvs);
  });

  test('without a resourceVersion: the current objects as ADDED, then live changes', async () => {
    const a = await start();
    await a.post(CM, { metadata: { name: 'a' } });
    const stream = await memory.transport.stream({ method: 'GET', path: CM, query: { watch: 1 } });
    await a.post(CM, { metadata: { name: 'b' } });
    expect((await events(stream, 2)).map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual(['ADDED a', 'ADDED b']);
  });

  test('with a label selector, an object that stops matching is DELETED and one that starts is ADDED', async () => {
    const a = await start();
    const made = await a.post(CM, { metadata: { name: 'a', labels: { on: 'yes' } } });
    const stream = await memory.transport.stream({ method: 'GET', path: CM, query: { watch: 1, resourceVersion: made.metadata.resourceVersion, labelSelector: 'on=yes' } });
    const off = await a.put(`${CM}/a`, { ...made, metadata: { ...made.metadata, labels: { on: 'no' } } });
    await a.put(`${CM}/a`, { ...off, metadata: { ...off.metadata, labels: { on: 'yes' } } });
    expect((await events(stream, 2)).map((e) => e.type)).toEqual(['DELETED', 'ADDED']);
  });

  test('a resourceVersion older than the kept history gets an ERROR event with 410 Expired, which watchOnce reports as expired', async () => {
    const a = await start({ historySize: 2 });
    const first = await a.post(CM, { metadata: { name: 'a' } });
    for (let i = 0; i < 3; i++) await a.post(CM, { metadata: { name: `more-${i}` } });
    const stream = await memory.transport.stream({ method: 'GET', path: CM, query: { watch: 1, resourceVersion: first.metadata.resourceVersion } });
    const [error] = await events(stream, 1);
    expect(error!.type).toBe('ERROR');
    expect(error!.object).toMatchObject({ kind: 'Status', code: 410, reason: 'Expired' });
    expect(error!.object.message).toMatch(/^too old resource version: \d+ \(\d+\)$/);
    const seen: WatchEvent<unknown>[] = [];
    const end = await watchOnce(memory.transport, ConfigMap, { namespace: 'default', resourceVersion: first.metadata.resourceVersion, timeoutSeconds: 60, idleMs: 5_000, signal: new AbortController().signal }, (e) => seen.push(e));
    expect(end).toBe('expired');
    expect(seen).toEqual([]);
  });

  test('the server ends a watch after timeoutSeconds, with a bookmark first when bookmarks are allowed', async () => {
    const a = await start();
    const made = await a.post(CM, { metadata: { name: 'a' } });
    const stream = await memory.transport.stream({ method: 'GET', path: CM, query: { watch: 1, resourceVersion: made.metadata.resourceVersion, timeoutSeconds: 1, allowWatchBookmarks: true } });
    const seen = await events(stream, 10);
    expect(seen).toEqual([{ type: 'BOOKMARK', object: { kind: 'ConfigMap', apiVersion: 'v1', metadata: { resourceVersion: made.metadata.resourceVersion } } }]);
  });
});

describe('custom objects are read through their version schema', () => {
  const versioned = (size: Record<string, unknown>) => {
    const crd = widgetCRD() as any;
    crd.spec.versions[0].schema.openAPIV3Schema = { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer', ...size } } } } };
    return crd;
  };
  const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
  const W = '/apis/example.com/v1/namespaces/default/widgets';

  test('a default added to the CRD after the write shows on the next read, as the API server defaults what it reads', async () => {
    const a = await start({ crds: [versioned({})] });
    await a.post(W, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: {} });
    expect((await a.get(`${W}/w`)).spec).toEqual({});
    const crd = await a.get(`${CRDS}/widgets.example.com`);
    crd.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.size.default = 3;
    await a.put(`${CRDS}/widgets.example.com`, crd);
    await memory.server.idle();
    expect((await a.get(`${W}/w`)).spec).toEqual({ size: 3 });
    expect((await a.get(W)).items[0].spec).toEqual({ size: 3 });
  });
});
