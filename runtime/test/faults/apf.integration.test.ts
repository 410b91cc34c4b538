import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Counter } from 'prom-client';
import { defineKind } from '../../src/api/kind.js';
import { createClient, isTooManyRequests, kinds, type ApiError, type Client } from '../../src/client/index.js';
import { createTransport } from '../../src/rest/transport.js';
import { controller } from '../../src/controller/index.js';
import { createManager } from '../../src/manager/index.js';
import type { KubeObject } from '../../src/object.js';
import { installCRDs, startControlPlane, type ControlPlane } from '../../src/testing/index.js';
import { eventually } from '../fixtures/eventually.js';
import { Widget, WIDGET_CRD } from '../fixtures/kinds.js';

const NS = 'default';
const USER = 'operator';
const WIDGETS = 100;

const PriorityLevel = defineKind<KubeObject>({ group: 'flowcontrol.apiserver.k8s.io', version: 'v1', kind: 'PriorityLevelConfiguration', plural: 'prioritylevelconfigurations', namespaced: false });
const FlowSchema = defineKind<KubeObject>({ group: 'flowcontrol.apiserver.k8s.io', version: 'v1', kind: 'FlowSchema', plural: 'flowschemas', namespaced: false });

/**
 * The operator's user gets a priority level of one seat that rejects (never queues) what
 * exceeds it. The server's total concurrency is lowered so that one share is one seat;
 * borrowing is off so the level cannot grow.
 */
async function confineOperator(admin: Client): Promise<string> {
  await admin.create(kinds.ClusterRoleBinding, {
    metadata: { name: 'operator-admin' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
    subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: USER }],
  });
  await admin.create(PriorityLevel, {
    metadata: { name: 'operator-one-seat' },
    spec: { type: 'Limited', limited: { nominalConcurrencyShares: 1, lendablePercent: 0, borrowingLimitPercent: 0, limitResponse: { type: 'Reject' } } },
  } as never);
  const schema = await admin.create(FlowSchema, {
    metadata: { name: 'operator-one-seat' },
    spec: {
      priorityLevelConfiguration: { name: 'operator-one-seat' },
      matchingPrecedence: 500,
      distinguisherMethod: { type: 'ByUser' },
      rules: [
        {
          subjects: [{ kind: 'User', user: { name: USER } }],
          resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], namespaces: ['*'], clusterScope: true }],
          nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
        },
      ],
    },
  } as never);
  return schema.metadata!.uid!;
}

function counted(counter: Counter, match: (labels: Record<string, string | number>) => boolean): Promise<number> {
  return counter.get().then((metric) => metric.values.filter((v) => match(v.labels as Record<string, string | number>)).reduce((sum, v) => sum + v.value, 0));
}

describe('API Priority and Fairness rejecting the operator (429)', () => {
  let cp: ControlPlane;
  let admin: Client;
  let schemaUid: string;

  beforeAll(async () => {
    cp = await startControlPlane({
      users: [{ name: USER }],
      extraArgs: { kubeApiServer: ['--max-requests-inflight=20', '--max-mutating-requests-inflight=10'] },
    });
    admin = createClient(cp.kubeConfig);
    await installCRDs(cp.kubeConfig, WIDGET_CRD);
    schemaUid = await confineOperator(admin);
    // APF's configuration controller applies new objects within a moment; wait until the
    // operator's requests are classified under the new schema.
    const transport = createTransport(cp.userKubeConfig(USER).kubeConfig);
    await eventually('the operator classified under its FlowSchema', async () => {
      const response = await transport.stream({ method: 'GET', path: '/api/v1/namespaces/default/configmaps' });
      response.destroy();
      return response.headers['x-kubernetes-pf-flowschema-uid'] === schemaUid;
    }, 30_000);
  }, 120_000);
  afterAll(async () => {
    await cp?.stop();
  });

  it('a 429 with a plain-text body is recognised by isTooManyRequests, with its Retry-After', async () => {
    // stream() tries once, so the 429s of concurrent requests beyond the one seat surface.
    // A burst can finish before its requests overlap on the seat (a fast list on an idle
    // server), so bursts repeat until one is rejected.
    const transport = createTransport(cp.userKubeConfig(USER).kubeConfig);
    let rejected: ApiError[] = [];
    for (let burst = 0; burst < 20 && rejected.length === 0; burst++) {
      const results = await Promise.allSettled(
        Array.from({ length: 60 }, () => transport.stream({ method: 'GET', path: '/api/v1/namespaces/default/configmaps' }).then((r) => r.destroy())),
      );
      rejected = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected').map((r) => r.reason as ApiError);
    }
    expect(rejected.length).toBeGreaterThan(0);
    for (const error of rejected) {
      expect(isTooManyRequests(error)).toBe(true);
      expect(error.status).toBeUndefined();
      expect(error.reason).toBe('TooManyRequests');
      expect(error.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    }
  });

  it('converges with 429s retried inside the calls: rejected ≤ 1.2 × useful requests, no reconcile error, no error line', async () => {
    for (let i = 0; i < WIDGETS; i++) await admin.create(Widget, { metadata: { name: `w-${i}`, namespace: NS }, spec: { size: i } });
    const lines: { level: string; msg: string }[] = [];
    const mgr = createManager({
      kubeConfig: cp.userKubeConfig(USER).kubeConfig,
      handleSignals: false,
      logDestination: { write: (l: string) => void lines.push(JSON.parse(l)) },
    });
    controller(mgr, { maxConcurrentReconciles: 8 })
      .for(Widget)
      .reconcile(async (req, ctx) => {
        const widget = await ctx.client.get(Widget, req.name, req.namespace);
        if (!widget || widget.status?.observedSize === widget.spec.size) return;
        await ctx.client.patchStatus(Widget, widget, { status: { observedSize: widget.spec.size ?? 0 } });
      });
    const running = mgr.start();
    try {
      await eventually(
        'every widget reconciled',
        async () => (await admin.list(Widget, { namespace: NS })).every((w) => w.status?.observedSize === w.spec.size),
        120_000,
      );
      const registry = mgr.metrics.registry;
      const requests = registry.getSingleMetric('rest_client_requests_total') as Counter;
      const rejected = await counted(requests, (l) => l.code === '429');
      const useful = await counted(requests, (l) => String(l.code).startsWith('2'));
      const retried = await counted(registry.getSingleMetric('rest_client_request_retries_total') as Counter, (l) => l.code === '429');
      const errors = await counted(registry.getSingleMetric('controller_runtime_reconcile_errors_total') as Counter, () => true);
      console.log(`APF: ${useful} useful requests, ${rejected} rejected (429), ${retried} retried`);
      // The one seat was contended: without 429s this test would prove nothing.
      expect(rejected).toBeGreaterThan(0);
      expect(retried).toBe(rejected);
      expect(rejected).toBeLessThanOrEqual(1.2 * useful);
      expect(errors).toBe(0);
      expect(lines.filter((l) => l.level === 'error')).toEqual([]);
    } finally {
      mgr.stop();
      await running;
    }
  }, 180_000);
});
