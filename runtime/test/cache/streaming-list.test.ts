import type { KubeConfig } from '@kubernetes/client-node';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createCache } from '../../src/cache/index.js';
import { createClient, kinds, type Client } from '../../src/client/index.js';
import { createCluster, createTransport, type Cluster, type HttpRequest } from '../../src/rest/index.js';
import { startControlPlane, type ControlPlane } from '../../src/testing/index.js';
import { configMap, createNamespace } from '../client/support.js';

// Streaming lists (Kubernetes' WatchList): the informer's initial list is a watch with
// sendInitialEvents=true, where the API server serves it (kube-apiserver 1.36: on by
// default), and pages of 500 where it does not. What the informer sent is recorded on its
// way to the real API server.

const OBJECTS = 1_200;

interface Sent {
  kind: 'list' | 'watch';
  query: HttpRequest['query'];
}

/** A cluster on the real transport to `kubeConfig` that records every list and watch it sends. */
function recordingCluster(kubeConfig: KubeConfig): { cluster: Cluster; sent: Sent[] } {
  const sent: Sent[] = [];
  const cluster = createCluster({
    kubeConfig,
    transport: (wiring) => {
      const real = createTransport(kubeConfig, wiring);
      return {
        request: <T>(request: HttpRequest) => {
          if (request.method === 'GET' && request.query?.limit !== undefined) sent.push({ kind: 'list', query: request.query });
          return real.request<T>(request);
        },
        stream: (request) => {
          sent.push({ kind: 'watch', query: request.query });
          return real.stream(request);
        },
        recovered: (signal) => real.recovered(signal),
      };
    },
  });
  return { cluster, sent };
}

async function fill(client: Client, ns: string): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      for (let i = next++; i < OBJECTS; i = next++) await client.create(kinds.ConfigMap, configMap(ns, `cm-${String(i).padStart(4, '0')}`, { size: String(i) }));
    }),
  );
}

const stop = new AbortController();
afterAll(() => stop.abort());

describe('streaming lists where the API server serves them', () => {
  let cp: ControlPlane;
  afterAll(async () => cp?.stop());

  it('syncs from one watch with initial events, no list request, then delivers later changes on that watch', async () => {
    cp = await startControlPlane();
    const client = createClient(cp.kubeConfig);
    const ns = await createNamespace(client, 'stream');
    await fill(client, ns);

    const { cluster, sent } = recordingCluster(cp.kubeConfig);
    const cache = createCache(cluster, { namespace: ns });
    const informer = cache.informerFor(kinds.ConfigMap);
    const adds: Array<[string, boolean]> = [];
    informer.addHandler({ add: (o, initial) => adds.push([o.metadata!.name!, initial]) });
    cache.start(stop.signal);
    expect(await cache.waitForSync(60_000)).toBe(true);
    expect(informer.list()).toHaveLength(OBJECTS);
    expect(informer.get('cm-0042', ns)?.data).toEqual({ size: '42' });
    expect(informer.health()).toMatchObject({ synced: true, listing: undefined });
    expect(sent).toEqual([{ kind: 'watch', query: expect.objectContaining({ watch: 1, sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan', allowWatchBookmarks: true }) }]);
    expect(sent[0]!.query).not.toHaveProperty('resourceVersion');
    // The initial events are the initial list: handlers hear them as such.
    expect(adds.filter(([, initial]) => initial)).toHaveLength(OBJECTS);

    await client.create(kinds.ConfigMap, configMap(ns, 'later'));
    await vi.waitFor(() => expect(adds.at(-1)).toEqual(['later', false]), { timeout: 10_000 });
    expect(sent).toHaveLength(1);
  });

  it('streams metadata only when the kind is cached metadata only', async () => {
    const client = createClient(cp.kubeConfig);
    const ns = await createNamespace(client, 'streammeta');
    await fill(client, ns);
    const { cluster, sent } = recordingCluster(cp.kubeConfig);
    const cache = createCache(cluster, { namespace: ns, byKind: [{ kind: kinds.ConfigMap, metadataOnly: true }] });
    const informer = cache.informerFor(kinds.ConfigMap);
    cache.start(stop.signal);
    expect(await cache.waitForSync(60_000)).toBe(true);
    expect(informer.list()).toHaveLength(OBJECTS);
    const one = informer.get('cm-0042', ns)!;
    expect({ apiVersion: one.apiVersion, kind: one.kind, data: one.data, name: one.metadata?.name }).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', data: undefined, name: 'cm-0042' });
    expect(sent.map((s) => s.kind)).toEqual(['watch']);
  });

  it("lists in pages of 500 when asked to (lists: 'pages')", async () => {
    const client = createClient(cp.kubeConfig);
    const ns = await createNamespace(client, 'pages');
    await fill(client, ns);
    const { cluster, sent } = recordingCluster(cp.kubeConfig);
    const cache = createCache(cluster, { namespace: ns, lists: 'pages' });
    const informer = cache.informerFor(kinds.ConfigMap);
    cache.start(stop.signal);
    expect(await cache.waitForSync(60_000)).toBe(true);
    expect(informer.list()).toHaveLength(OBJECTS);
    expect(sent.map((s) => s.kind)).toEqual(['list', 'list', 'list', 'watch']);
    expect(sent.at(-1)!.query).not.toHaveProperty('sendInitialEvents');
  });
});

describe('an API server without streaming lists (--feature-gates=WatchList=false)', () => {
  let cp: ControlPlane;
  afterAll(async () => cp?.stop());

  it('falls back to pages at once after the refused stream, with one log line and no failure', async () => {
    cp = await startControlPlane({ extraArgs: { kubeApiServer: ['--feature-gates=WatchList=false'] } });
    const client = createClient(cp.kubeConfig);
    const ns = await createNamespace(client, 'nostream');
    await fill(client, ns);
    const { cluster, sent } = recordingCluster(cp.kubeConfig);
    const lines: Array<{ msg: string; reason?: string }> = [];
    const logger = {
      debug: () => {},
      info: (fields: object, msg: string) => lines.push({ ...fields, msg }),
      warn: (fields: object, msg: string) => lines.push({ ...fields, msg }),
      error: (fields: object, msg: string) => lines.push({ ...fields, msg }),
    };
    const started = performance.now();
    const cache = createCache(cluster, { namespace: ns, logger });
    const informer = cache.informerFor(kinds.ConfigMap);
    cache.start(stop.signal);
    expect(await cache.waitForSync(60_000)).toBe(true);
    // No backoff between the refusal and the pages.
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(informer.list()).toHaveLength(OBJECTS);
    expect(sent.map((s) => s.kind)).toEqual(['watch', 'list', 'list', 'list', 'watch']);
    expect(sent[0]!.query).toHaveProperty('sendInitialEvents', true);
    expect(sent.at(-1)!.query).not.toHaveProperty('sendInitialEvents');
    const fallbacks = lines.filter((l) => l.msg === 'streaming list of ConfigMap refused: listing in pages');
    expect(fallbacks).toHaveLength(1);
    expect(lines.filter((l) => l.msg.includes('failed'))).toEqual([]);
  });
});
