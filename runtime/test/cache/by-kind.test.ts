import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createCache } from '../../src/cache/index.js';
import { createClient, kinds, type Client } from '../../src/client/index.js';
import { startControlPlane, type ControlPlane } from '../../src/testing/index.js';
import { configMap, createNamespace } from '../client/support.js';
import { recordEvents } from './support.js';

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

describe('caching a kind by selector, metadata only, or transformed', () => {
  it('holds only objects matching the label selector, and sees an object that comes to match', async () => {
    const ns = await createNamespace(client, 'labels');
    await client.create(kinds.ConfigMap, configMap(ns, 'mine', {}, { app: 'web' }));
    await client.create(kinds.ConfigMap, configMap(ns, 'other'));
    const cache = createCache(cp.kubeConfig, { namespace: ns, byKind: [{ kind: kinds.ConfigMap, labelSelector: 'app=web' }] });
    const informer = cache.informerFor(kinds.ConfigMap);
    const { handler, events } = recordEvents<kinds.ConfigMap>();
    informer.addHandler(handler);
    cache.start(stop.signal);
    expect(await cache.waitForSync(10_000)).toBe(true);
    expect(informer.list().map((c) => c.metadata?.name)).toEqual(['mine']);

    await client.create(kinds.ConfigMap, configMap(ns, 'unrelated'));
    await client.patch(kinds.ConfigMap, { metadata: { name: 'other', namespace: ns } }, { metadata: { labels: { app: 'web' } } });
    await vi.waitFor(() => expect(events).toEqual(['add mine', 'add other']));
    expect(informer.get('unrelated', ns)).toBeUndefined();
  });

  it('selection decided while running: reselect lists again with it, deleting the objects it leaves and adding the ones it takes', async () => {
    const ns = await createNamespace(client, 'reselect');
    await client.create(kinds.ConfigMap, configMap(ns, 'a', {}, { side: 'a' }));
    await client.create(kinds.ConfigMap, configMap(ns, 'b', {}, { side: 'b' }));
    let side = 'a';
    const cache = createCache(cp.kubeConfig, { namespace: ns, byKind: [{ kind: kinds.ConfigMap, selection: () => ({ labelSelector: `side=${side}` }) }] });
    const informer = cache.informerFor(kinds.ConfigMap);
    const { handler, events } = recordEvents<kinds.ConfigMap>();
    informer.addHandler(handler);
    cache.start(stop.signal);
    expect(await cache.waitForSync(10_000)).toBe(true);
    expect(informer.list().map((c) => c.metadata?.name)).toEqual(['a']);

    side = 'b';
    informer.reselect();
    await vi.waitFor(() => expect(informer.list().map((c) => c.metadata?.name)).toEqual(['b']));
    expect(events.sort()).toEqual(['add a', 'add b', 'delete a']);
    // The new watch follows the new selection.
    await client.create(kinds.ConfigMap, configMap(ns, 'b2', {}, { side: 'b' }));
    await client.create(kinds.ConfigMap, configMap(ns, 'a2', {}, { side: 'a' }));
    await vi.waitFor(() => expect(informer.get('b2', ns)).toBeDefined());
    expect(informer.get('a2', ns)).toBeUndefined();
  });

  it('holds only objects matching the field selector', async () => {
    const ns = await createNamespace(client, 'fields');
    await client.create(kinds.Secret, { metadata: { name: 'plain', namespace: ns }, stringData: { a: 'b' } });
    await client.create(kinds.Secret, { metadata: { name: 'cert', namespace: ns }, type: 'kubernetes.io/tls', stringData: { 'tls.crt': 'c', 'tls.key': 'k' } });
    const cache = createCache(cp.kubeConfig, { namespace: ns, byKind: [{ kind: kinds.Secret, fieldSelector: 'type=kubernetes.io/tls' }] });
    const informer = cache.informerFor(kinds.Secret);
    cache.start(stop.signal);
    expect(await cache.waitForSync(10_000)).toBe(true);
    expect(informer.list().map((s) => s.metadata?.name)).toEqual(['cert']);
  });

  it('metadata only: keeps labels and owners but no data, and the client reads such a kind whole from the API server', async () => {
    const ns = await createNamespace(client, 'meta');
    await client.create(kinds.ConfigMap, configMap(ns, 'big', { blob: 'x'.repeat(10_000) }, { tier: 'db' }));
    const cache = createCache(cp.kubeConfig, { namespace: ns, byKind: [{ kind: kinds.ConfigMap, metadataOnly: true }] });
    const informer = cache.informerFor(kinds.ConfigMap);
    const { handler, events } = recordEvents<kinds.ConfigMap>((o) => `${o.metadata?.name} ${o.kind} ${Object.keys(o).sort().join(',')}`);
    informer.addHandler(handler);
    cache.start(stop.signal);
    expect(await cache.waitForSync(10_000)).toBe(true);
    const cached = informer.get('big', ns)!;
    expect(cached).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'big', labels: { tier: 'db' } } });
    expect('data' in cached).toBe(false);

    await client.create(kinds.ConfigMap, configMap(ns, 'later', { v: '1' }));
    await vi.waitFor(() => expect(events).toEqual(['add big ConfigMap apiVersion,kind,metadata', 'add later ConfigMap apiVersion,kind,metadata']));
    const reader = createClient(cp.kubeConfig, { cache });
    expect((await reader.get(kinds.ConfigMap, 'big', ns))?.data?.blob).toHaveLength(10_000);
  });

  it('stores what the transform returns, for lists and watch events alike', async () => {
    const ns = await createNamespace(client, 'transform');
    await client.create(kinds.ConfigMap, configMap(ns, 'listed', { keep: 'k', drop: 'd' }));
    const cache = createCache(cp.kubeConfig, {
      namespace: ns,
      byKind: [{ kind: kinds.ConfigMap, transform: (cm: kinds.ConfigMap) => ({ ...cm, data: { keep: cm.data?.keep ?? '' } }) }],
    });
    const informer = cache.informerFor(kinds.ConfigMap);
    cache.start(stop.signal);
    expect(await cache.waitForSync(10_000)).toBe(true);
    await client.create(kinds.ConfigMap, configMap(ns, 'watched', { keep: 'w', drop: 'd' }));
    await vi.waitFor(() => expect(informer.get('watched', ns)?.data).toEqual({ keep: 'w' }));
    expect(informer.get('listed', ns)?.data).toEqual({ keep: 'k' });
  });

  it('with a resync period, hands every cached object to the handlers again as an unchanged update', async () => {
    const ns = await createNamespace(client, 'resync');
    await client.create(kinds.ConfigMap, configMap(ns, 'steady', { v: '1' }));
    const cache = createCache(cp.kubeConfig, { namespace: ns, resyncPeriodMs: 300 });
    const informer = cache.informerFor(kinds.ConfigMap);
    const { handler, events } = recordEvents<kinds.ConfigMap>((o) => `${o.metadata?.name}@${o.metadata?.resourceVersion}`);
    informer.addHandler(handler);
    cache.start(stop.signal);
    expect(await cache.waitForSync(10_000)).toBe(true);
    const version = informer.get('steady', ns)!.metadata!.resourceVersion;
    await vi.waitFor(() => expect(events.filter((e) => e.startsWith('update')).length).toBeGreaterThanOrEqual(2));
    expect(new Set(events.filter((e) => e.startsWith('update')))).toEqual(new Set([`update steady@${version} -> steady@${version}`]));
  });
});
