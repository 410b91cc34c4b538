import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, kinds, type Client } from '../../src/client/index.js';
import { controller } from '../../src/controller/index.js';
import { createManager, type Manager } from '../../src/manager/index.js';
import { installCRDs, startControlPlane, type ControlPlane } from '../../src/testing/index.js';
import { eventually } from '../fixtures/eventually.js';
import { Widget, WIDGET_CRD } from '../fixtures/kinds.js';

const NS = 'default';
const USER = 'lister';
type Line = { level: string; msg: string; phase?: string; err?: { message?: string } };

describe('an operator whose RBAC allows list but not watch', () => {
  let cp: ControlPlane;
  let admin: Client;
  let mgr: Manager;
  let running: Promise<void>;
  const lines: Line[] = [];

  beforeAll(async () => {
    cp = await startControlPlane({ users: [{ name: USER }, { name: 'nobody' }] });
    admin = createClient(cp.kubeConfig);
    await installCRDs(cp.kubeConfig, WIDGET_CRD);
    await admin.create(kinds.ClusterRole, {
      metadata: { name: 'widget-lister' },
      rules: [
        { apiGroups: ['test.opgen.dev'], resources: ['widgets'], verbs: ['get', 'list'] },
        { apiGroups: ['test.opgen.dev'], resources: ['widgets/status'], verbs: ['patch'] },
      ],
    });
    await admin.create(kinds.ClusterRoleBinding, {
      metadata: { name: 'widget-lister' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'widget-lister' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: USER }],
    });
    await admin.create(Widget, { metadata: { name: 'early', namespace: NS }, spec: { size: 1 } });
    mgr = createManager({
      kubeConfig: cp.userKubeConfig(USER).kubeConfig,
      handleSignals: false,
      healthProbeBindAddress: '127.0.0.1:0',
      logDestination: { write: (l: string) => void lines.push(JSON.parse(l)) },
    });
    controller(mgr)
      .for(Widget)
      .reconcile(async (req, ctx) => {
        const widget = await ctx.client.get(Widget, req.name, req.namespace);
        if (!widget || widget.status?.observedSize === widget.spec.size) return;
        await ctx.client.patchStatus(Widget, widget, { status: { observedSize: widget.spec.size ?? 0 } });
      });
    running = mgr.start();
    await mgr.elected();
  });
  afterAll(async () => {
    mgr?.stop();
    await running?.catch(() => {});
    await cp?.stop();
  });

  const observed = async (name: string) => (await admin.get(Widget, name, NS))?.status?.observedSize;

  it('relists to see objects created later, and fails readiness naming the 403 meanwhile', async () => {
    await eventually('early reconciled from the first list', async () => (await observed('early')) === 1, 30_000);
    await admin.create(Widget, { metadata: { name: 'later', namespace: NS }, spec: { size: 2 } });
    await admin.patch(Widget, { metadata: { name: 'early', namespace: NS } }, { spec: { size: 3 } });
    // Relists back off 0.8 s → 30 s: the changes are seen at the latest one backoff later.
    await eventually('later and the change of early reconciled by relisting', async () => (await observed('later')) === 2 && (await observed('early')) === 3, 90_000);

    const readyz = await fetch(`http://${mgr.healthProbeAddress}/readyz`);
    expect(readyz.status).toBe(500);
    expect(await readyz.text()).toMatch(/\[-\]informers failed: Widget\.test\.opgen\.dev: .*forbidden/);
    const refused = lines.find((l) => l.level === 'warn' && l.phase === 'watch');
    expect(refused?.err?.message).toMatch(/cannot watch resource "widgets"/);
  }, 150_000);

  it('a cache that cannot sync for lack of RBAC fails start naming the 403 it got', async () => {
    const denied = createManager({ kubeConfig: cp.userKubeConfig('nobody').kubeConfig, handleSignals: false, logLevel: 'silent', cacheSyncTimeoutMs: 3_000 });
    controller(denied).for(Widget).reconcile(() => undefined);
    await expect(denied.start()).rejects.toThrow(/^the cache made no progress syncing for 3000 ms: Widget\.test\.opgen\.dev: .*cannot list resource "widgets"/);
  });
});
