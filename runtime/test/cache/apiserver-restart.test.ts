import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { createCache } from '../../src/cache/index.js';
import { createClient, kinds, retryOnConflict, type Client } from '../../src/client/index.js';
import { startControlPlane, type ControlPlane } from '../../src/testing/index.js';
import { configMap, createNamespace } from '../client/support.js';
import { memoryLogger, recordEvents } from './support.js';

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

it('recovers its watch after the API server restarts and delivers what changed meanwhile, once', async () => {
  const ns = await createNamespace(client, 'restart');
  for (const name of ['keep', 'change', 'remove']) await client.create(kinds.ConfigMap, configMap(ns, name, { v: '1' }));
  const logger = memoryLogger();
  const cache = createCache(cp.kubeConfig, { namespace: ns, logger });
  const informer = cache.informerFor(kinds.ConfigMap);
  const { handler, events } = recordEvents<kinds.ConfigMap>((o) => `${o.metadata?.name}=${o.data?.v}`);
  informer.addHandler(handler);
  cache.start(stop.signal);
  expect(await cache.waitForSync(10_000)).toBe(true);
  events.length = 0;

  await cp.restartApiServer();
  // The informer is still backing off from the outage while these land.
  const change = (await client.get(kinds.ConfigMap, 'change', ns))!;
  await client.update(kinds.ConfigMap, { ...change, data: { v: '2' } });
  await client.delete(kinds.ConfigMap, { metadata: { name: 'remove', namespace: ns } });
  await client.create(kinds.ConfigMap, configMap(ns, 'new', { v: '1' }));

  const expected = ['add new=1', 'delete remove=1', 'update change=1 -> change=2'];
  await vi.waitFor(() => expect([...events].sort()).toEqual(expected), { timeout: 45_000, interval: 100 });
  expect(logger.lines.some((l) => l.level === 'warn' && l.message.startsWith('watch of ConfigMap failed'))).toBe(true);
  expect(informer.list().map((c) => c.metadata?.name).sort()).toEqual(['change', 'keep', 'new']);

  // The watch is alive again: a later change arrives as a single event.
  await retryOnConflict(async () => {
    const keep = (await client.get(kinds.ConfigMap, 'keep', ns))!;
    await client.update(kinds.ConfigMap, { ...keep, data: { v: '3' } });
  });
  await vi.waitFor(() => expect(events).toContain('update keep=1 -> keep=3'), { timeout: 10_000 });
  expect([...events].sort()).toEqual([...expected, 'update keep=1 -> keep=3'].sort());
  await vi.waitFor(() => expect(informer.health().consecutiveFailures).toBe(0));
  expect(informer.health().lastContact!.getTime()).toBeGreaterThan(Date.now() - 10_000);
});
