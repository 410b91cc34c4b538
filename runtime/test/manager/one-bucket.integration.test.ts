import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { defineKind } from '../../src/api/kind.js';
import { createClient, kinds, type Client } from '../../src/client/index.js';
import { watchCharts, type ChartResource } from '../../src/helm/index.js';
import { createManager, managerOptionsFromArgs, type Manager } from '../../src/manager/index.js';
import { createCluster, createTokenBucket, type TokenBucket } from '../../src/rest/index.js';
import { migrateStorageVersionsWhenLeading } from '../../src/storageversion/index.js';
import { freePort } from '../../src/testing/ports.js';
import { installCRDs, startControlPlane, type ControlPlane } from '../../src/testing/index.js';
import { serveWebhooks, webhook } from '../../src/webhook/index.js';
import { createNamespace } from '../client/support.js';

// The API server's audit log is the witness: it records every request the operator's identity
// sends, whichever part of the process sent it (a part with a connection of its own would
// send as the same identity, and the counts would differ). Each must have taken a token from
// the one bucket of the manager's cluster (watches excepted, as in client-go).

const OPERATOR = 'operator';
const SCRAPER = 'scraper';
const Webapp = defineKind<ChartResource>({ group: 'charts.example.com', version: 'v1alpha1', kind: 'Webapp', plural: 'webapps', namespaced: true });
const fixture = (path: string) => fileURLToPath(new URL(`../fixtures/helm/${path}`, import.meta.url));

/** GET `url` over HTTPS with a bearer token, any certificate accepted; resolves with the status. */
function scrape(url: string, token: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { authorization: `Bearer ${token}` }, rejectUnauthorized: false, agent: false }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

type Configuration = { metadata?: { name?: string }; webhooks?: Array<Record<string, unknown> & { clientConfig: { url?: string; caBundle?: string } }> };
const ValidatingWebhookConfiguration = defineKind<Configuration>({ group: 'admissionregistration.k8s.io', version: 'v1', kind: 'ValidatingWebhookConfiguration', plural: 'validatingwebhookconfigurations', namespaced: false });

/** Audit policy: one event per finished request of the operator's identity, nothing else. */
const POLICY = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived, ResponseStarted]
rules:
  - level: Metadata
    users: [${OPERATOR}]
  - level: None
`;

interface AuditEvent {
  auditID: string;
  verb: string;
  requestURI: string;
  user: { username: string };
}

/** The operator's requests the API server has finished, watches left out (streaming lists are lists), by audit ID. */
async function auditedRequests(logPath: string): Promise<AuditEvent[]> {
  const text = await readFile(logPath, 'utf8').catch(() => '');
  const events = text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as AuditEvent)
    .filter((event) => event.user.username === OPERATOR && (event.verb !== 'watch' || event.requestURI.includes('sendInitialEvents=true')));
  return [...new Map(events.map((event) => [event.auditID, event])).values()];
}

/** A bucket that counts the tokens taken from it. */
function countingBucket(): TokenBucket & { taken: number } {
  const bucket = createTokenBucket(1000, 1000);
  const counting = {
    taken: 0,
    take: (signal?: AbortSignal) => {
      counting.taken += 1;
      return bucket.take(signal);
    },
  };
  return counting;
}

/** Tokens taken from the manager's bucket as its metrics saw them: one observation of the rate limiter's wait per request sent. */
async function tokensTaken(mgr: Manager): Promise<number> {
  const metric = await mgr.metrics.registry.getSingleMetric('rest_client_rate_limiter_duration_seconds')!.get();
  return metric.values.filter((v) => (v as { metricName?: string }).metricName === 'rest_client_rate_limiter_duration_seconds_count').reduce((total, v) => total + v.value, 0);
}

describe('one token bucket for every request of a manager with webhooks and leader election', () => {
  let cp: ControlPlane;
  let client: Client;
  let dir: string;
  let auditLog: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'opgen-one-bucket-'));
    auditLog = join(dir, 'audit.log');
    await writeFile(join(dir, 'policy.yaml'), POLICY);
    cp = await startControlPlane({
      users: [{ name: OPERATOR, groups: ['system:masters'] }, { name: SCRAPER }],
      extraArgs: { kubeApiServer: [`--audit-policy-file=${join(dir, 'policy.yaml')}`, `--audit-log-path=${auditLog}`, '--audit-log-format=json', '--audit-log-mode=blocking'] },
    });
    client = createClient(cp.kubeConfig);
    await installCRDs(cp.kubeConfig, fixture('webapp-crd.yaml'));
    // What a scraper is bound to (the scaffold's metrics_reader_role.yaml).
    await client.create(kinds.ClusterRole, { metadata: { name: 'metrics-reader' }, rules: [{ nonResourceURLs: ['/metrics'], verbs: ['get'] }] });
    await client.create(kinds.ClusterRoleBinding, {
      metadata: { name: 'metrics-reader-scraper' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'metrics-reader' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: SCRAPER }],
    });
  });
  afterAll(async () => {
    await cp?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('counts the built-in certificates, leader election, the cache, the client, events, access reviews, Helm discovery and storage migration in the one bucket as the API server counts them', async () => {
    const ns = await createNamespace(client, 'onebucket');
    await client.create(ValidatingWebhookConfiguration, {
      metadata: { name: `${ns}-validating` },
      webhooks: [
        {
          name: 'vconfigmap.test.opgen.dev',
          clientConfig: { url: `https://127.0.0.1:${await freePort()}/validate--v1-configmap` },
          rules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }],
          namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': `${ns}-none` } },
          sideEffects: 'None',
          admissionReviewVersions: ['v1'],
        },
      ],
    });
    const bucket = countingBucket();
    const cluster = createCluster(cp.userKubeConfig(OPERATOR).kubeConfig, { rateLimiter: bucket });
    const flags = ['--leader-elect', '--leader-election-id', 'one-bucket', '--leader-election-namespace', ns, '--metrics-bind-address', '127.0.0.1:0'];
    const mgr = createManager({ ...managerOptionsFromArgs(flags), cluster, namespace: ns, handleSignals: false, logLevel: 'silent', retryPeriodMs: 500, renewDeadlineMs: 2_000, leaseDurationMs: 3_000 });
    expect(mgr.rateLimiter).toBe(bucket);
    serveWebhooks(mgr, {
      host: '127.0.0.1',
      port: 0,
      certificate: { builtIn: { secret: { namespace: ns, name: 'webhook-cert' }, hosts: ['127.0.0.1'], validatingWebhookConfigurations: [`${ns}-validating`], refreshMs: 300 } },
    });
    webhook(mgr).for(kinds.ConfigMap).validate({});
    mgr.cache.informerFor(kinds.ConfigMap);
    // Discovery of the chart's kind; no Webapp exists, so helm itself never runs.
    await watchCharts(mgr, { watches: [{ group: Webapp.group, version: Webapp.version, kind: Webapp.kind, chart: fixture('webapp'), watchDependentResources: false, overrideValues: {}, reconcilePeriodMs: 0, maxConcurrentReconciles: 1 }], helm: 'helm' });
    migrateStorageVersionsWhenLeading(mgr, [Webapp]);
    const running = mgr.start();
    try {
      await mgr.elected();
      // The CA reached the configuration: the built-in certificates read, wrote and injected.
      await vi.waitFor(async () => expect((await client.get(ValidatingWebhookConfiguration, `${ns}-validating`))?.webhooks?.[0]?.clientConfig.caBundle).toBeTruthy(), { timeout: 20_000 });
      await mgr.client.get(kinds.Namespace, ns);
      const regarding = await client.create(kinds.ConfigMap, { metadata: { name: 'regarded', namespace: ns } });
      const recorder = mgr.eventRecorder('one-bucket');
      recorder.event(regarding, 'Normal', 'Counted', 'this event took a token');
      await recorder.flush();
      // The secure metrics endpoint asks the API server who the scraper is and what it may do.
      const token = cp.userKubeConfig(SCRAPER).kubeConfig.getCurrentUser()!.token!;
      expect(await scrape(`https://${mgr.metricsAddress}/metrics`, token)).toBe(200);
      // A few renewals of the Lease and refreshes of the certificates' Secret.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
    } finally {
      mgr.stop();
      await running;
    }
    const requests = await auditedRequests(auditLog);
    const by = (pattern: RegExp) => requests.filter((r) => pattern.test(r.requestURI)).length;
    // Every part was seen by the API server.
    expect({
      certificates: by(/\/secrets\/webhook-cert/) >= 2,
      injection: by(/validatingwebhookconfigurations/) >= 1,
      leaderElection: by(/\/leases\/one-bucket/) >= 2,
      cache: by(/\/configmaps\?.*sendInitialEvents=true/) >= 1 && by(/\/webapps\?.*sendInitialEvents=true/) >= 1,
      client: by(new RegExp(`/namespaces/${ns}$`)) >= 1,
      events: by(/\/events/) >= 1,
      accessReviews: by(/tokenreviews/) >= 1 && by(/subjectaccessreviews/) >= 1,
      helmDiscovery: by(/^\/apis\/charts\.example\.com\/v1alpha1$/) >= 1,
      storageMigration: by(/customresourcedefinitions\/webapps\.charts\.example\.com/) >= 1,
    }).toEqual({ certificates: true, injection: true, leaderElection: true, cache: true, client: true, events: true, accessReviews: true, helmDiscovery: true, storageMigration: true });
    // And each request took its token: the bucket counted exactly what the API server served,
    // and the manager's rate-limiter metric saw each take.
    await vi.waitFor(async () => expect(bucket.taken).toBe((await auditedRequests(auditLog)).length), { timeout: 5_000 });
    expect(await tokensTaken(mgr)).toBe(bucket.taken);
  });
});
