import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { createCache } from '../../src/cache/index.js';
import { listAll } from '../../src/rest/list.js';
import { createTransport, type Transport } from '../../src/rest/transport.js';
import { createClient, isGone, kinds, type Client } from '../../src/client/index.js';
import { startControlPlane, type ControlPlane } from '../../src/testing/index.js';
import { configMap, createNamespace } from '../client/support.js';
import { memoryLogger, recordEvents, startNetworkCut, type NetworkCut } from './support.js';

let cp: ControlPlane;
let client: Client;
let network: NetworkCut;
const stop = new AbortController();

beforeAll(async () => {
  // Without the watch cache every watch reaches etcd, so a compacted resourceVersion is 410 Gone.
  cp = await startControlPlane({ watchCache: false });
  client = createClient(cp.kubeConfig);
  network = await startNetworkCut(cp.kubeConfig);
});

afterAll(async () => {
  stop.abort();
  await network?.close();
  await cp?.stop();
});

it('relists on 410 Gone after compaction and emits exactly what changed, deletions included', async () => {
  const ns = await createNamespace(client, 'gone');
  for (const name of ['same', 'changed', 'twice', 'deleted']) await client.create(kinds.ConfigMap, configMap(ns, name, { v: '1' }));
  const logger = memoryLogger();
  // The informer reaches the API server through a cuttable link; the test writes directly.
  const cache = createCache(network.kubeConfig, { namespace: ns, logger, backoff: { initialMs: 200, maxMs: 400 } });
  const informer = cache.informerFor(kinds.ConfigMap);
  const { handler, events } = recordEvents<kinds.ConfigMap>((o) => `${o.metadata?.name}=${o.data?.v}`);
  informer.addHandler(handler);
  cache.start(stop.signal);
  expect(await cache.waitForSync(10_000)).toBe(true);
  events.length = 0;
  const sameBefore = informer.get('same', ns);

  network.cut();
  await vi.waitFor(() => expect(informer.health().consecutiveFailures).toBeGreaterThan(0));
  const changed = (await client.get(kinds.ConfigMap, 'changed', ns))!;
  await client.update(kinds.ConfigMap, { ...changed, data: { v: '2' } });
  const twice = await client.patch(kinds.ConfigMap, { metadata: { name: 'twice', namespace: ns } }, { data: { v: '2' } });
  await client.patch(kinds.ConfigMap, twice, { data: { v: '3' } });
  await client.delete(kinds.ConfigMap, { metadata: { name: 'deleted', namespace: ns } });
  await client.create(kinds.ConfigMap, configMap(ns, 'created', { v: '1' }));
  await cp.compactEtcd();
  network.heal();

  const expected = ['add created=1', 'delete deleted=1', 'update changed=1 -> changed=2', 'update twice=1 -> twice=3'];
  await vi.waitFor(() => expect([...events].sort()).toEqual(expected), { timeout: 20_000, interval: 100 });
  // The relist backs off like any failure (here 200–400 ms), so a compacted or restarted server is not hit by every informer at once.
  const expired = logger.lines.find((l) => l.message === 'watch expired (410 Gone): relisting');
  expect((expired?.fields as { retryInMs?: number } | undefined)?.retryInMs).toBeGreaterThanOrEqual(200);
  expect(logger.lines.find((l) => l.message === 'informer relisted')?.fields).toMatchObject({ added: 1, updated: 2, deleted: 1 });
  // An unchanged object keeps its cached instance: no event, no churn.
  expect(informer.get('same', ns)).toBe(sameBefore);

  // Watching again from the relist: one event per later change, nothing repeated.
  await client.patch(kinds.ConfigMap, { metadata: { name: 'same', namespace: ns } }, { data: { v: '2' } });
  await vi.waitFor(() => expect(events).toContain('update same=1 -> same=2'));
  expect([...events].sort()).toEqual([...expected, 'update same=1 -> same=2'].sort());
});

it('surfaces 410 as isGone and restarts a paginated list whose continue token expired', async () => {
  const ns = await createNamespace(client, 'pages');
  for (let i = 0; i < 520; i += 20) {
    await Promise.all(Array.from({ length: 20 }, (_, j) => client.create(kinds.ConfigMap, configMap(ns, `cm-${i + j}`))));
  }
  const direct = createTransport(cp.kubeConfig);
  const first = await direct.request<{ metadata: { continue: string } }>({ method: 'GET', path: `/api/v1/namespaces/${ns}/configmaps`, query: { limit: 500 } });
  await client.create(kinds.ConfigMap, configMap(ns, 'bump'));
  await cp.compactEtcd();
  const expired = await direct
    .request({ method: 'GET', path: `/api/v1/namespaces/${ns}/configmaps`, query: { limit: 500, continue: first.metadata.continue } })
    .catch((e: unknown) => e);
  expect(isGone(expired)).toBe(true);

  // Compact between the first and second page of listAll: it starts over and returns a consistent whole.
  let pages = 0;
  const compactingAfterFirstPage: Transport = {
    stream: direct.stream,
    recovered: direct.recovered,
    async request<T>(request: Parameters<Transport['request']>[0]): Promise<T> {
      pages++;
      const result = await direct.request<T>(request);
      if (pages === 1) {
        await client.create(kinds.ConfigMap, configMap(ns, 'late'));
        await cp.compactEtcd();
      }
      return result;
    },
  };
  const listed = await listAll(compactingAfterFirstPage, kinds.ConfigMap, { namespace: ns });
  // Page 1, page 2 (410), then pages 1 and 2 again.
  expect(pages).toBe(4);
  expect(listed.items.length).toBe(522);
  expect(listed.items.some((c) => c.metadata?.name === 'late')).toBe(true);
});
