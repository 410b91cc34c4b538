import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, kinds, type Client } from '../../src/client/index.js';
import { controller, generationChanged, type Request } from '../../src/controller/index.js';
import { setControllerReference } from '../../src/helpers/index.js';
import { createManager, type Manager } from '../../src/manager/index.js';
import { installCRDs, startControlPlane, type ControlPlane } from '../../src/testing/index.js';
import { eventually } from '../fixtures/eventually.js';
import { Widget, WIDGET_CRD } from '../fixtures/kinds.js';

const NS = 'default';

describe('controllers against a real API server', () => {
  let cp: ControlPlane;
  let mgr: Manager;
  let running: Promise<void>;
  let client: Client;
  const lines: Record<string, unknown>[] = [];
  /** Reconcile starts per controller and object name, with their time. */
  const calls: Array<{ controller: string; name: string; at: number }> = [];
  const callsOf = (ctrl: string, name: string) => calls.filter((c) => c.controller === ctrl && c.name === name);

  beforeAll(async () => {
    cp = await startControlPlane();
    await installCRDs(cp.kubeConfig, WIDGET_CRD);
    client = createClient(cp.kubeConfig);
    mgr = createManager({
      kubeConfig: cp.kubeConfig,
      handleSignals: false,
      logLevel: 'debug',
      logDestination: { write: (l: string) => void lines.push(JSON.parse(l)) },
    });

    controller(mgr)
      .for(Widget)
      .owns(kinds.ConfigMap)
      .watches(kinds.Secret, (secret): Request[] => {
        const widget = secret.metadata?.labels?.widget;
        return widget ? [{ namespace: secret.metadata!.namespace!, name: widget }] : [];
      })
      .reconcile(async (req, ctx) => {
        calls.push({ controller: 'widget', name: req.name, at: performance.now() });
        const widget = await ctx.client.get(Widget, req.name, req.namespace);
        if (!widget) return;
        if (widget.spec.fail) throw new Error(`widget ${req.name} is broken`);
        const size = String(widget.spec.size ?? 0);
        const existing = await ctx.client.get(kinds.ConfigMap, req.name, req.namespace);
        if (!existing) {
          const cm: kinds.ConfigMap = { metadata: { name: req.name, namespace: req.namespace }, data: { size } };
          await ctx.client.create(kinds.ConfigMap, setControllerReference(widget, Widget, cm));
          ctx.recorder.event(widget, 'Normal', 'Created', `created ConfigMap ${req.name}`);
        } else if (existing.data?.size !== size) {
          await ctx.client.update(kinds.ConfigMap, { ...existing, data: { size } });
        }
        if (widget.status?.observedSize !== widget.spec.size) {
          await ctx.client.patchStatus(Widget, widget, { status: { observedSize: widget.spec.size ?? 0 } });
        }
      });

    // A second controller on the same kind: it only hears spec changes.
    controller(mgr, { name: 'widget-spec' })
      .for(Widget, { predicates: [generationChanged()] })
      .reconcile((req) => {
        calls.push({ controller: 'widget-spec', name: req.name, at: performance.now() });
      });

    running = mgr.start();
    await mgr.elected();
  });

  afterAll(async () => {
    mgr?.stop();
    await running;
    await cp?.stop();
  });

  it('reconciles a custom object: writes its status, creates a ConfigMap it controls, records an Event', async () => {
    const created = await client.create(Widget, { metadata: { name: 'alpha', namespace: NS }, spec: { size: 3 } });
    const status = await eventually('status.observedSize', async () => (await client.get(Widget, 'alpha', NS))?.status?.observedSize);
    expect(status).toBe(3);
    const cm = await client.get(kinds.ConfigMap, 'alpha', NS);
    expect(cm?.data).toEqual({ size: '3' });
    expect(cm?.metadata?.ownerReferences).toEqual([
      { apiVersion: 'test.opgen.dev/v1', kind: 'Widget', name: 'alpha', uid: created.metadata!.uid, controller: true, blockOwnerDeletion: true },
    ]);
    const event = await eventually('an Event about alpha', async () =>
      (await client.list(kinds.Event, { namespace: NS })).find((e) => e.regarding?.name === 'alpha' && e.reason === 'Created'),
    );
    expect(event).toMatchObject({ type: 'Normal', reportingController: 'widget', note: 'created ConfigMap alpha', regarding: { kind: 'Widget', uid: created.metadata!.uid } });
  });

  it('reconciles the owner again when an owned object is changed or deleted', async () => {
    await client.create(Widget, { metadata: { name: 'beta', namespace: NS }, spec: { size: 1 } });
    const cm = await eventually('ConfigMap beta', () => client.get(kinds.ConfigMap, 'beta', NS));
    await client.update(kinds.ConfigMap, { ...cm, data: { size: 'tampered' } });
    await eventually('ConfigMap beta restored', async () => (await client.get(kinds.ConfigMap, 'beta', NS))?.data?.size === '1');
    await client.delete(kinds.ConfigMap, cm);
    const again = await eventually('ConfigMap beta recreated', async () => {
      const now = await client.get(kinds.ConfigMap, 'beta', NS);
      return now && now.metadata?.uid !== cm.metadata?.uid ? now : undefined;
    });
    expect(again.data).toEqual({ size: '1' });
  });

  it('enqueues what a watch map function returns', async () => {
    await client.create(Widget, { metadata: { name: 'gamma', namespace: NS }, spec: { size: 1 } });
    await eventually('gamma reconciled', async () => (await client.get(Widget, 'gamma', NS))?.status?.observedSize === 1);
    await eventually('gamma idle', () => mgr.metrics.registry.getSingleMetric('workqueue_depth')!.get().then((m) => m.values.every((v) => v.value === 0)));
    const before = callsOf('widget', 'gamma').length;
    await client.create(kinds.Secret, { metadata: { name: 'gamma-secret', namespace: NS, labels: { widget: 'gamma' } }, stringData: { a: 'b' } });
    await eventually('a reconcile of gamma caused by its Secret', () => callsOf('widget', 'gamma').length > before);
    await client.create(kinds.Secret, { metadata: { name: 'unrelated', namespace: NS }, stringData: { a: 'b' } });
    await new Promise((r) => setTimeout(r, 500));
    expect(calls.some((c) => c.name === 'unrelated')).toBe(false);
  });

  it('with generationChanged, ignores status writes and reconciles spec changes', async () => {
    await client.create(Widget, { metadata: { name: 'delta', namespace: NS }, spec: { size: 1 } });
    await eventually('delta status', async () => (await client.get(Widget, 'delta', NS))?.status?.observedSize === 1);
    await eventually('the spec controller saw delta', () => callsOf('widget-spec', 'delta').length === 1);
    // The widget controller's status write (an update event) did not reach it.
    await new Promise((r) => setTimeout(r, 500));
    expect(callsOf('widget-spec', 'delta')).toHaveLength(1);
    const delta = (await client.get(Widget, 'delta', NS))!;
    await client.patch(Widget, delta, { spec: { size: 2 } });
    await eventually('the spec controller saw the spec change', () => callsOf('widget-spec', 'delta').length === 2);
  });

  it('keeps retrying a failing object with growing backoff while others converge, and survives', async () => {
    await client.create(Widget, { metadata: { name: 'broken', namespace: NS }, spec: { size: 1, fail: true } });
    await client.create(Widget, { metadata: { name: 'healthy', namespace: NS }, spec: { size: 7 } });
    await eventually('healthy reconciled', async () => (await client.get(Widget, 'healthy', NS))?.status?.observedSize === 7);
    await eventually('eight attempts at broken', () => callsOf('widget', 'broken').length >= 8);
    const attempts = callsOf('widget', 'broken').map((c) => c.at);
    const gaps = attempts.slice(1, 8).map((t, i) => t - attempts[i]!);
    // Each retry waits at least 5 ms · 2^n (timers never fire early, beyond rounding).
    gaps.forEach((gap, n) => expect(gap).toBeGreaterThanOrEqual(5 * 2 ** n - 1));

    const errors = lines.filter((l) => l.msg === 'Reconciler error' && l.name === 'broken');
    expect(errors.length).toBeGreaterThanOrEqual(8);
    // The key's backoff counter grows by one per failure; the healthy key never had one.
    expect(errors.slice(0, 8).map((l) => l.retries)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(lines.some((l) => l.name === 'healthy' && l.level === 'error')).toBe(false);
    expect(errors[0]).toMatchObject({ level: 'error', controller: 'widget', namespace: NS, err: { message: 'widget broken is broken' } });
    expect(new Set(errors.map((l) => l.reconcileID)).size).toBe(errors.length);

    // Fixing the spec reconciles it at once, whatever backoff it was waiting out.
    const broken = (await client.get(Widget, 'broken', NS))!;
    await client.patch(Widget, broken, { spec: { fail: false } });
    await eventually('broken fixed', async () => (await client.get(Widget, 'broken', NS))?.status?.observedSize === 1, 5_000);
  });

  it('runs a controller added after start(), on a kind the cache did not watch yet', async () => {
    const seen: string[] = [];
    controller(mgr, { name: 'late-configmaps' })
      .for(kinds.ConfigMap)
      .reconcile((req) => {
        seen.push(req.name);
      });
    await client.create(kinds.ConfigMap, { metadata: { name: 'for-the-late-one', namespace: NS } });
    await eventually('the late controller reconciles', () => seen.includes('for-the-late-one'), 30_000);
  });
});
