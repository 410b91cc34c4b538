import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createClient, kinds, type Client } from '../../src/client/index.js';
import { createManager, managerOptionsFromArgs, type Manager, type ManagerOptions } from '../../src/manager/index.js';
import { startControlPlane, type ControlPlane } from '../../src/testing/index.js';
import { startNetworkCut, type NetworkCut } from '../cache/support.js';
import { configMap, createNamespace } from '../client/support.js';

const WATCHED = [kinds.ConfigMap, kinds.Secret, kinds.ServiceAccount, kinds.Service];

/** Sums the samples of a metric family whose labels include `labels`. */
async function sample(mgr: Manager, series: string, labels: Record<string, string>): Promise<number> {
  const family = series.replace(/_(count|sum)$/, '');
  const metric = await mgr.metrics.registry.getSingleMetric(family)!.get();
  return metric.values
    .filter((v) => ((v as { metricName?: string }).metricName ?? family) === series && Object.entries(labels).every(([k, value]) => v.labels[k] === value))
    .reduce((total, v) => total + v.value, 0);
}

const waits = (mgr: Manager) => sample(mgr, 'rest_client_rate_limiter_duration_seconds_count', { verb: 'GET' });
const waitedSeconds = (mgr: Manager) => sample(mgr, 'rest_client_rate_limiter_duration_seconds_sum', { verb: 'GET' });
const answeredGets = (mgr: Manager) => sample(mgr, 'rest_client_requests_total', { method: 'GET', code: '200' });

describe('--kube-api-qps / --kube-api-burst: one token bucket for every request of the manager', () => {
  let cp: ControlPlane;
  let client: Client;
  let network: NetworkCut;

  beforeAll(async () => {
    // Without the watch cache a watch from a compacted resourceVersion is 410 Gone: the informers must relist.
    cp = await startControlPlane({ watchCache: false });
    client = createClient(cp.kubeConfig);
    network = await startNetworkCut(cp.kubeConfig);
  });
  afterAll(async () => {
    await network?.close();
    await cp?.stop();
  });

  /**
   * A manager reaching the API server through the cuttable relay, with an informer per kind
   * of {@link WATCHED}; `tokens` lists the path of every request that took a token, in order.
   */
  function managerFor(namespace: string, flags: string[]): { mgr: Manager; running: Promise<void>; tokens: string[] } {
    const options: ManagerOptions = managerOptionsFromArgs(flags);
    const mgr = createManager({ ...options, kubeConfig: network.kubeConfig, namespace, handleSignals: false, logLevel: 'silent', cacheSyncTimeoutMs: 30_000 });
    const tokens: string[] = [];
    mgr.cluster.observe({ response() {}, retry() {}, rateLimited: (_method, _seconds, path) => tokens.push(path) });
    for (const kind of WATCHED) mgr.cache.informerFor(kind);
    return { mgr, running: mgr.start(), tokens };
  }

  /** How many tokens each path took. */
  const byPath = (tokens: string[]) => tokens.reduce<Record<string, number>>((counts, path) => ({ ...counts, [path]: (counts[path] ?? 0) + 1 }), {});

  it('makes every list of every informer (streamed), each relist after a 410 and the client wait in one bucket, while plain watches take no token', async () => {
    const ns = await createNamespace(client, 'qps');
    await client.create(kinds.ConfigMap, configMap(ns, 'early'));
    const { mgr, running, tokens } = managerFor(ns, ['--kube-api-qps', '2', '--kube-api-burst', '1']);
    const collections = ['configmaps', 'secrets', 'serviceaccounts', 'services'].map((plural) => `/api/v1/namespaces/${ns}/${plural}`);
    try {
      await mgr.elected();
      // A streaming list (a watch with sendInitialEvents, its list and then its watch) answered
      // per informer, each of which took a token, as a list does.
      await vi.waitFor(async () => expect(await answeredGets(mgr)).toBeGreaterThanOrEqual(WATCHED.length), { timeout: 20_000 });
      expect(await waits(mgr)).toBe(WATCHED.length);
      // Four lists sent at once through a bucket of one token refilled twice a second: three of them waited.
      expect(await waitedSeconds(mgr)).toBeGreaterThan(0);

      // The client's reads take from the same bucket.
      expect(await mgr.client.get(kinds.Namespace, ns)).toBeDefined();
      expect(await waits(mgr)).toBe(WATCHED.length + 1);

      // The watches break; meanwhile etcd is compacted past their resourceVersion, so reopening them is 410 Gone.
      const configMaps = mgr.cache.informerFor(kinds.ConfigMap);
      network.cut();
      await vi.waitFor(() => expect(configMaps.health().consecutiveFailures).toBeGreaterThan(0), { timeout: 20_000 });
      await client.create(kinds.ConfigMap, configMap(ns, 'late'));
      await cp.compactEtcd();
      network.heal();
      // Retried watches took no token: only the relists (streamed again) did, one per informer,
      // and the /readyz probes that ended the informers' backoff when the network came back.
      await vi.waitFor(() => expect(configMaps.get('late', ns)).toBeDefined(), { timeout: 30_000, interval: 100 });
      await vi.waitFor(() => expect(tokens.filter((path) => collections.includes(path))).toHaveLength(2 * WATCHED.length), { timeout: 30_000, interval: 100 });
      const { '/readyz': probes = 0, ...lists } = byPath(tokens);
      expect(lists).toEqual({ ...Object.fromEntries(collections.map((path) => [path, 2])), [`/api/v1/namespaces/${ns}`]: 1 });
      expect(probes).toBeGreaterThan(0);
      // The metric counts every token of the bucket, probes included.
      expect(await waits(mgr)).toBe(tokens.length);
    } finally {
      mgr.stop();
      await running;
    }
  });

  it('makes leader election take from the same bucket', async () => {
    const ns = await createNamespace(client, 'qpslease');
    const { mgr, running } = managerFor(ns, ['--kube-api-qps', '2', '--kube-api-burst', '1', '--leader-elect', '--leader-election-id', 'qps-test', '--leader-election-namespace', ns]);
    try {
      await mgr.elected();
      expect(await client.get(kinds.Lease, 'qps-test', ns)).toBeDefined();
      // With no controller the one write of the manager is the Lease it created to lead.
      expect(await sample(mgr, 'rest_client_rate_limiter_duration_seconds_count', { verb: 'POST' })).toBeGreaterThanOrEqual(1);
      expect(mgr.rateLimiter).toBeDefined();
    } finally {
      mgr.stop();
      await running;
    }
  });

  it('without the flags no request waits: the rate limiter observes nothing', async () => {
    const ns = await createNamespace(client, 'noqps');
    const { mgr, running } = managerFor(ns, []);
    try {
      await mgr.elected();
      expect(await mgr.client.get(kinds.Namespace, ns)).toBeDefined();
      await vi.waitFor(async () => expect(await answeredGets(mgr)).toBeGreaterThanOrEqual(WATCHED.length + 1), { timeout: 20_000 });
      expect(await sample(mgr, 'rest_client_rate_limiter_duration_seconds_count', {})).toBe(0);
      expect(mgr.rateLimiter).toBeUndefined();
    } finally {
      mgr.stop();
      await running;
    }
  });
});
