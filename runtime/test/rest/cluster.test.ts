import { KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { createCache } from '../../src/cache/index.js';
import { createClient, kinds } from '../../src/client/index.js';
import { createManager } from '../../src/manager/index.js';
import { createCluster, createTokenBucket, type HttpRequest, type Transport, type TransportWiring } from '../../src/rest/index.js';

/** An in-process transport answering every GET of a Namespace, taking the cluster's tokens as an HTTP one does. */
function answering(wiring: TransportWiring, seen: HttpRequest[]): Transport {
  return {
    async request<T>(request: HttpRequest) {
      await wiring.rateLimiter?.take(request.signal);
      seen.push(request);
      wiring.observer.response(request.method, '200');
      return { apiVersion: 'v1', kind: 'Namespace', metadata: { name: request.path.split('/').pop() } } as T;
    },
    stream: () => Promise.reject(new Error('no watches here')),
    recovered: () => Promise.resolve(),
  };
}

function kubeConfigFor(server: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({ clusters: [{ name: 'c', server }], users: [{ name: 'u' }], contexts: [{ name: 'x', cluster: 'c', user: 'u' }], currentContext: 'x' });
  return kc;
}

describe('createCluster', () => {
  it('sends a client built on it through its one transport, its bucket and its observers', async () => {
    const seen: HttpRequest[] = [];
    let taken = 0;
    const bucket = createTokenBucket(1000, 1000);
    const counting = { take: (signal?: AbortSignal) => ((taken += 1), bucket.take(signal)) };
    const responses: string[] = [];
    const cluster = createCluster({ transport: (wiring) => answering(wiring, seen), rateLimiter: counting, host: 'memory' });
    const stop = cluster.observe({ response: (method, code) => responses.push(`${method} ${code}`), retry: () => {} });
    const client = createClient(cluster, { timeoutMs: 1234 });
    expect((await client.get(kinds.Namespace, 'shop'))?.metadata?.name).toBe('shop');
    stop();
    await client.get(kinds.Namespace, 'other');
    expect(seen.map((r) => [r.path, r.timeoutMs])).toEqual([
      ['/api/v1/namespaces/shop', 1234],
      ['/api/v1/namespaces/other', 1234],
    ]);
    expect(taken).toBe(2);
    expect(responses).toEqual(['GET 200']);
    expect(cluster).toMatchObject({ host: 'memory', kubeConfig: undefined, rateLimiter: counting });
  });

  it('names the kubeconfig server as the host of request metrics, and a transport of your own "in-process"', () => {
    expect(createCluster(kubeConfigFor('https://10.0.0.1:6443')).host).toBe('10.0.0.1:6443');
    expect(createCluster({ transport: (wiring) => answering(wiring, []) }).host).toBe('in-process');
  });

  it('refuses connection settings beside a cluster, since every part shares its connection', () => {
    const cluster = createCluster(kubeConfigFor('https://127.0.0.1:6443'));
    expect(() => createClient(cluster, { qps: 5 })).toThrow('createClient: qps belong to the cluster: set them in createCluster');
    expect(() => createCache(cluster, { rateLimiter: createTokenBucket(1, 1) })).toThrow('createCache: rateLimiter belong to the cluster');
    expect(() => createManager({ cluster, qps: 5, handleSignals: false, logLevel: 'silent' })).toThrow('createManager: qps belong to the cluster');
    expect(() => createCluster({ transport: answering({ observer: { response() {}, retry() {} } }, []), qps: 5 })).toThrow('a rate limit needs a transport built from the wiring');
  });

  it('gives a manager on a transport of its own the cluster, no kubeconfig, and its host in request metrics', async () => {
    const cluster = createCluster({ transport: (wiring) => answering(wiring, []), host: 'memory' });
    const mgr = createManager({ cluster, handleSignals: false, logLevel: 'silent' });
    expect(mgr.cluster).toBe(cluster);
    expect(mgr.kubeConfig).toBeUndefined();
    await mgr.client.get(kinds.Namespace, 'shop');
    const text = await mgr.metrics.registry.metrics();
    expect(text).toContain('rest_client_requests_total{code="200",method="GET",host="memory"} 1');
  });
});
