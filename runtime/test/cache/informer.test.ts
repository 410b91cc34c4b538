import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createCache, type Cache } from '../../src/cache/index.js';
import { createClient, kinds, type Client } from '../../src/client/index.js';
import { startControlPlane, type ControlPlane } from '../../src/testing/index.js';
import { configMap, createNamespace, Widget, installWidgetCRD } from '../client/support.js';
import { memoryLogger, recordEvents } from './support.js';
import type { DeepReadonly } from '../../src/object.js';

let cp: ControlPlane;
let client: Client;
const stop = new AbortController();

beforeAll(async () => {
  cp = await startControlPlane();
  client = createClient(cp.kubeConfig);
});

afterAll(async () => {
  stop.abort();
  await cp?.stop();
});

function startedCache(options: Parameters<typeof createCache>[1] = {}): Cache {
  const cache = createCache(cp.kubeConfig, options);
  cache.start(stop.signal);
  return cache;
}

async function createMany(ns: string, count: number, labels?: Record<string, string>): Promise<void> {
  const names = Array.from({ length: count }, (_, i) => `cm-${String(i).padStart(4, '0')}`);
  for (let i = 0; i < names.length; i += 25) {
    await Promise.all(names.slice(i, i + 25).map((name) => client.create(kinds.ConfigMap, configMap(ns, name, { n: name }, labels))));
  }
}

describe('list, sync and events', () => {
  it('syncs a collection larger than one list page and reports each object once', async () => {
    const ns = await createNamespace(client, 'paged');
    await createMany(ns, 520);
    const cache = startedCache({ namespace: ns });
    const informer = cache.informerFor(kinds.ConfigMap);
    const { handler, events } = recordEvents<kinds.ConfigMap>();
    informer.addHandler(handler);
    expect(await cache.waitForSync(20_000)).toBe(true);
    expect(informer.hasSynced()).toBe(true);
    // 520 ConfigMaps plus the namespace's kube-root-ca.crt when a controller manager runs (none here).
    expect(events.length).toBe(520);
    expect(new Set(events).size).toBe(520);
    expect(informer.list().length).toBe(520);
    expect(cache.health()).toEqual([expect.objectContaining({ kind: 'ConfigMap', synced: true, consecutiveFailures: 0, lastError: undefined })]);
  });

  it('delivers add, update (old and new) and delete, and strips managedFields', async () => {
    const ns = await createNamespace(client, 'events');
    const cache = startedCache({ namespace: ns });
    const informer = cache.informerFor(kinds.ConfigMap);
    const { handler, events } = recordEvents<kinds.ConfigMap>((o) => `${o.metadata?.name}=${o.data?.v ?? ''}`);
    informer.addHandler(handler);
    await cache.waitForSync(10_000);

    const created = await client.create(kinds.ConfigMap, configMap(ns, 'live', { v: '1' }));
    await client.update(kinds.ConfigMap, { ...created, data: { v: '2' } });
    await vi.waitFor(() => expect(informer.get('live', ns)?.data).toEqual({ v: '2' }));
    expect(informer.get('live', ns)?.metadata?.managedFields).toBeUndefined();
    await client.delete(kinds.ConfigMap, created);
    await vi.waitFor(() => expect(events).toEqual(['add live=1', 'update live=1 -> live=2', 'delete live=2']));
    expect(informer.get('live', ns)).toBeUndefined();
  });

  it('replays the store to a handler added after sync, and unregisters handlers', async () => {
    const ns = await createNamespace(client, 'late');
    await createMany(ns, 3);
    const cache = startedCache({ namespace: ns });
    const informer = cache.informerFor(kinds.ConfigMap);
    await cache.waitForSync(10_000);
    const late = recordEvents<kinds.ConfigMap>();
    const unregister = informer.addHandler(late.handler);
    expect(late.events.sort()).toEqual(['add cm-0000', 'add cm-0001', 'add cm-0002']);
    unregister();
    await client.create(kinds.ConfigMap, configMap(ns, 'after'));
    await vi.waitFor(() => expect(informer.get('after', ns)).toBeDefined());
    expect(late.events).toHaveLength(3);
  });

  it('keeps delivering to other handlers when one throws, and logs the failure', async () => {
    const ns = await createNamespace(client, 'throws');
    const logger = memoryLogger();
    const cache = startedCache({ namespace: ns, logger });
    const informer = cache.informerFor(kinds.ConfigMap);
    informer.addHandler({
      add: () => {
        throw new Error('handler bug');
      },
    });
    const { handler, events } = recordEvents<kinds.ConfigMap>();
    informer.addHandler(handler);
    await cache.waitForSync(10_000);
    await client.create(kinds.ConfigMap, configMap(ns, 'one'));
    await client.create(kinds.ConfigMap, configMap(ns, 'two'));
    await vi.waitFor(() => expect(events).toEqual(['add one', 'add two']));
    expect(logger.lines.filter((l) => l.message === 'informer event handler threw')).toHaveLength(2);
  });

  it('watches only its namespace when restricted, and cluster-scoped kinds everywhere', async () => {
    const mine = await createNamespace(client, 'mine');
    const theirs = await createNamespace(client, 'theirs');
    await client.create(kinds.ConfigMap, configMap(mine, 'a'));
    await client.create(kinds.ConfigMap, configMap(theirs, 'b'));
    const cache = startedCache({ namespace: mine });
    const configMaps = cache.informerFor(kinds.ConfigMap);
    const namespaces = cache.informerFor(kinds.Namespace);
    await cache.waitForSync(10_000);
    expect(configMaps.list().map((c) => `${c.metadata?.namespace}/${c.metadata?.name}`)).toEqual([`${mine}/a`]);
    expect(namespaces.get(theirs)?.metadata?.name).toBe(theirs);
  });
});

describe('queries', () => {
  it('lists by namespace, labels and a user index, and gets by name', async () => {
    const a = await createNamespace(client, 'qa');
    const b = await createNamespace(client, 'qb');
    await client.create(kinds.ConfigMap, configMap(a, 'web-1', { owner: 'x' }, { app: 'web', tier: 'front' }));
    await client.create(kinds.ConfigMap, configMap(a, 'web-2', { owner: 'y' }, { app: 'web', tier: 'back' }));
    await client.create(kinds.ConfigMap, configMap(b, 'web-3', { owner: 'x' }, { app: 'web', tier: 'front' }));
    await client.create(kinds.ConfigMap, configMap(b, 'db-1', { owner: 'x' }, { app: 'db' }));
    const cache = startedCache();
    const informer = cache.informerFor(kinds.ConfigMap);
    informer.addIndex('owner', (o) => (o.data?.owner ? [o.data.owner] : []));
    await cache.waitForSync(10_000);
    const names = (list: readonly DeepReadonly<kinds.ConfigMap>[]) => list.map((c) => c.metadata?.name).sort();

    expect(names(informer.list({ namespace: a }).filter((c) => c.data?.owner))).toEqual(['web-1', 'web-2']);
    expect(names(informer.list({ labels: { app: 'web' } }).filter((c) => [a, b].includes(c.metadata!.namespace!)))).toEqual(['web-1', 'web-2', 'web-3']);
    expect(names(informer.list({ labels: { app: 'web', tier: 'front' } }).filter((c) => [a, b].includes(c.metadata!.namespace!)))).toEqual(['web-1', 'web-3']);
    expect(names(informer.list({ namespace: b, labels: { app: 'web' } }))).toEqual(['web-3']);
    expect(names(informer.list({ index: { name: 'owner', value: 'x' } }))).toEqual(['db-1', 'web-1', 'web-3']);
    expect(names(informer.list({ namespace: a, index: { name: 'owner', value: 'x' } }))).toEqual(['web-1']);
    expect(informer.list({ labels: { app: 'none' } })).toEqual([]);
    expect(informer.get('web-2', a)?.data).toEqual({ owner: 'y' });
    expect(informer.get('web-2', b)).toBeUndefined();

    // Indexes follow updates: web-2 moves from owner y to owner x.
    const web2 = (await client.get(kinds.ConfigMap, 'web-2', a))!;
    await client.update(kinds.ConfigMap, { ...web2, data: { owner: 'x' }, metadata: { ...web2.metadata, labels: { app: 'api' } } });
    await vi.waitFor(() => expect(names(informer.list({ index: { name: 'owner', value: 'x' } }))).toEqual(['db-1', 'web-1', 'web-2', 'web-3']));
    expect(informer.list({ index: { name: 'owner', value: 'y' } })).toEqual([]);
    expect(names(informer.list({ namespace: a, labels: { app: 'web' } }))).toEqual(['web-1']);
    expect(() => informer.list({ index: { name: 'nope', value: 'x' } })).toThrow('no index named "nope"');
  });
});

describe('the client reading through the cache', () => {
  it('serves reads of cached kinds from the cache as copies, and others from the API server', async () => {
    const ns = await createNamespace(client, 'reads');
    const cache = startedCache({ namespace: ns });
    const informer = cache.informerFor(kinds.ConfigMap);
    await cache.waitForSync(10_000);
    const cached = createClient(cp.kubeConfig, { cache });
    await client.create(kinds.ConfigMap, configMap(ns, 'c', { v: '1' }, { app: 'c' }));
    await vi.waitFor(async () => expect(await cached.get(kinds.ConfigMap, 'c', ns)).toBeDefined());

    const copy = (await cached.get(kinds.ConfigMap, 'c', ns))!;
    copy.data!.v = 'changed here';
    expect(informer.get('c', ns)?.data?.v).toBe('1');
    const listed = await cached.list(kinds.ConfigMap, { namespace: ns, labels: { app: 'c' } });
    listed[0]!.data!.v = 'changed too';
    expect(informer.get('c', ns)?.data?.v).toBe('1');

    // A write the watch has not delivered yet is invisible to the cached read, visible uncached.
    await client.patch(kinds.ConfigMap, copy, { data: { v: '2' } });
    expect((await cached.uncached().get(kinds.ConfigMap, 'c', ns))?.data?.v).toBe('2');
    await vi.waitFor(async () => expect((await cached.get(kinds.ConfigMap, 'c', ns))?.data?.v).toBe('2'));

    // Secrets are not cached, nor ConfigMaps of other namespaces: those reads go to the API server.
    await client.create(kinds.Secret, { metadata: { name: 's', namespace: ns }, stringData: { k: 'v' } });
    expect((await cached.get(kinds.Secret, 's', ns))?.data).toEqual({ k: Buffer.from('v').toString('base64') });
    expect(cache.has(kinds.Secret)).toBe(false);
    await client.create(kinds.ConfigMap, configMap('default', 'elsewhere'));
    expect((await cached.get(kinds.ConfigMap, 'elsewhere', 'default'))?.metadata?.name).toBe('elsewhere');
  });
});

describe('a kind the API server does not serve yet', () => {
  it('keeps retrying with backoff, reports it, and syncs once the CRD appears', async () => {
    const logger = memoryLogger();
    const cache = startedCache({ logger, backoff: { initialMs: 100, maxMs: 400 } });
    const informer = cache.informerFor(Widget);
    expect(await cache.waitForSync(1_500)).toBe(false);
    const health = informer.health();
    expect(health.synced).toBe(false);
    expect(health.consecutiveFailures).toBeGreaterThan(1);
    expect(health.lastError).toContain('404');
    expect(logger.lines.some((l) => l.level === 'warn' && l.message === 'list of Widget.test.opgen.dev failed; retrying')).toBe(true);

    await installWidgetCRD(cp.kubeConfig);
    expect(await informer.waitForSync(10_000)).toBe(true);
    // Healthy again once the watch that follows the list is open.
    await vi.waitFor(() => expect(informer.health()).toMatchObject({ synced: true, healthy: true, consecutiveFailures: 0 }));
  });
});
