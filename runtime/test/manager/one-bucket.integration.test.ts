import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { defineKind } from '../../src/api/kind.js';
import { createClient, kinds, type Client } from '../../src/client/index.js';
import { createManager, managerOptionsFromArgs, type Manager } from '../../src/manager/index.js';
import { freePort } from '../../src/testing/ports.js';
import { startControlPlane, type ControlPlane } from '../../src/testing/index.js';
import { serveWebhooks, webhook } from '../../src/webhook/index.js';
import { createNamespace } from '../client/support.js';

// The API server's audit log is the witness: it records every request the operator's identity
// sends, whichever part of the process sent it. Each must have taken a token from the
// manager's one bucket (watches excepted, as in client-go).

const OPERATOR = 'operator';

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

/** The operator's requests the API server has finished, watches left out, by audit ID. */
async function auditedRequests(logPath: string): Promise<AuditEvent[]> {
  const text = await readFile(logPath, 'utf8').catch(() => '');
  const events = text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as AuditEvent)
    .filter((event) => event.user.username === OPERATOR && event.verb !== 'watch');
  return [...new Map(events.map((event) => [event.auditID, event])).values()];
}

/** Tokens taken from the manager's bucket: one observation of the rate limiter's wait per request sent. */
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
      users: [{ name: OPERATOR, groups: ['system:masters'] }],
      extraArgs: { kubeApiServer: [`--audit-policy-file=${join(dir, 'policy.yaml')}`, `--audit-log-path=${auditLog}`, '--audit-log-format=json', '--audit-log-mode=blocking'] },
    });
    client = createClient(cp.kubeConfig);
  });
  afterAll(async () => {
    await cp?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('counts the built-in certificates, leader election, the cache and the client in the same bucket as the API server counts them', async () => {
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
    const flags = ['--kube-api-qps', '1000', '--kube-api-burst', '1000', '--leader-elect', '--leader-election-id', 'one-bucket', '--leader-election-namespace', ns];
    const mgr = createManager({ ...managerOptionsFromArgs(flags), kubeConfig: cp.userKubeConfig(OPERATOR).kubeConfig, namespace: ns, handleSignals: false, logLevel: 'silent', retryPeriodMs: 500, renewDeadlineMs: 2_000, leaseDurationMs: 3_000 });
    serveWebhooks(mgr, {
      host: '127.0.0.1',
      port: 0,
      certificate: { builtIn: { secret: { namespace: ns, name: 'webhook-cert' }, hosts: ['127.0.0.1'], validatingWebhookConfigurations: [`${ns}-validating`], refreshMs: 300 } },
    });
    webhook(mgr).for(kinds.ConfigMap).validate({});
    mgr.cache.informerFor(kinds.ConfigMap);
    const running = mgr.start();
    try {
      await mgr.elected();
      // The CA reached the configuration: the built-in certificates read, wrote and injected.
      await vi.waitFor(async () => expect((await client.get(ValidatingWebhookConfiguration, `${ns}-validating`))?.webhooks?.[0]?.clientConfig.caBundle).toBeTruthy(), { timeout: 20_000 });
      await mgr.client.get(kinds.Namespace, ns);
      // A few renewals of the Lease and refreshes of the certificates' Secret.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
    } finally {
      mgr.stop();
      await running;
    }
    const requests = await auditedRequests(auditLog);
    const by = (pattern: RegExp) => requests.filter((r) => pattern.test(r.requestURI)).length;
    // Every part was seen by the API server.
    expect(by(/\/secrets\/webhook-cert/)).toBeGreaterThanOrEqual(2);
    expect(by(/validatingwebhookconfigurations/)).toBeGreaterThanOrEqual(1);
    expect(by(/\/leases\/one-bucket/)).toBeGreaterThanOrEqual(2);
    expect(by(/\/configmaps\?/)).toBeGreaterThanOrEqual(1);
    // And each request took its token: the bucket counted exactly what the API server served.
    await vi.waitFor(async () => expect(await tokensTaken(mgr)).toBe((await auditedRequests(auditLog)).length), { timeout: 5_000 });
  });
});
