import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCache } from '../../src/cache/index.js';
import { createClient, kinds, type Client } from '../../src/client/index.js';
import { startControlPlane, type ControlPlane } from '../../src/testing/index.js';
import { startNetworkCut, type NetworkCut } from '../cache/support.js';
import { configMap, createNamespace } from './support.js';

let cp: ControlPlane;
let admin: Client;
let network: NetworkCut;
const stop = new AbortController();

beforeAll(async () => {
  cp = await startControlPlane();
  admin = createClient(cp.kubeConfig);
  network = await startNetworkCut(cp.kubeConfig);
});

afterAll(async () => {
  stop.abort();
  await network?.close();
  await cp?.stop();
});

async function cachedClient(ns: string, options: { viaRelay?: boolean; readYourWritesMs?: number } = {}): Promise<Client> {
  const cache = createCache(options.viaRelay ? network.kubeConfig : cp.kubeConfig, { namespace: ns });
  cache.informerFor(kinds.ConfigMap);
  cache.start(stop.signal);
  expect(await cache.waitForSync(10_000)).toBe(true);
  return createClient(cp.kubeConfig, { cache, readYourWritesMs: options.readYourWritesMs });
}

describe('read-your-writes through the cache', () => {
  it('a cached list right after a create includes it, a get right after an update shows it, a list after a delete lacks it', async () => {
    const ns = await createNamespace(admin, 'ryw');
    const client = await cachedClient(ns);
    for (let i = 0; i < 20; i++) {
      const created = await client.create(kinds.ConfigMap, configMap(ns, `cm-${i}`, { v: '1' }));
      expect((await client.list(kinds.ConfigMap, { namespace: ns })).map((c) => c.metadata?.name)).toContain(`cm-${i}`);
      await client.update(kinds.ConfigMap, { ...created, data: { v: '2' } });
      expect((await client.get(kinds.ConfigMap, `cm-${i}`, ns))?.data).toEqual({ v: '2' });
      await client.delete(kinds.ConfigMap, created);
      expect((await client.list(kinds.ConfigMap, { namespace: ns })).map((c) => c.metadata?.name)).not.toContain(`cm-${i}`);
    }
  });

  it('reads from the API server when the cache does not catch up in time', async () => {
    const ns = await createNamespace(admin, 'ryw-stalled');
    const client = await cachedClient(ns, { viaRelay: true, readYourWritesMs: 300 });
    await client.create(kinds.ConfigMap, configMap(ns, 'behind', { v: '1' }));
    expect((await client.get(kinds.ConfigMap, 'behind', ns))?.data).toEqual({ v: '1' });
    network.stall();
    try {
      await client.update(kinds.ConfigMap, { ...(await client.get(kinds.ConfigMap, 'behind', ns))!, data: { v: '2' } });
      expect((await client.get(kinds.ConfigMap, 'behind', ns))?.data).toEqual({ v: '2' });
    } finally {
      network.heal();
    }
  });
});
