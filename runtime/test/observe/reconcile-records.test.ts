import { afterEach, describe, expect, it, vi } from 'vitest';
import { controller, createManager, kinds, requeue, terminal, type Manager } from '../../src/index.js';
import { onReconcile, type ReconcileRecord } from '../../src/observe/index.js';
import { readCRDs } from '../../src/testing/crds.js';
import { serveMemoryCluster, type ServedMemoryCluster } from '../../src/testing/memory/serve.js';
import { eventually } from '../fixtures/eventually.js';
import { Widget, WIDGET_CRD } from '../fixtures/kinds.js';

vi.setConfig({ testTimeout: 20_000 });

// The reconcile records a manager publishes while someone listens (what `opgen dev` prints
// and shows): real manager, cache, client, queue and HTTPS transport, on the memory cluster
// served on loopback as `opgen dev` serves it.

let served: ServedMemoryCluster | undefined;
let mgr: Manager | undefined;
let running: Promise<void> | undefined;
let unsubscribe: (() => void) | undefined;

afterEach(async () => {
  unsubscribe?.();
  mgr?.stop();
  await running?.catch(() => undefined);
  await served?.close();
  served = mgr = running = unsubscribe = undefined;
});

/** A manager on a served memory cluster with the controllers `declare` adds, started. */
async function startManager(declare: (m: Manager) => void): Promise<Manager> {
  served = await serveMemoryCluster({ crds: readCRDs([WIDGET_CRD]) });
  mgr = createManager({ kubeConfig: served.kubeConfig(), handleSignals: false, logLevel: 'silent' });
  declare(mgr);
  running = mgr.start();
  return mgr;
}

describe('reconcile records', () => {
  it('carry the trigger, the result and every API call of the reconcile, with status codes', async () => {
    const records: ReconcileRecord[] = [];
    unsubscribe = onReconcile((r) => records.push(r));
    const m = await startManager((host) =>
      controller(host)
        .for(Widget)
        .owns(kinds.ConfigMap)
        .reconcile(async (widget, ctx) => {
          await ctx.apply(kinds.ConfigMap, { metadata: { name: `${widget.metadata.name}-cm` }, data: { size: String(widget.spec.size ?? 0) } });
          await ctx.client.get(kinds.Secret, 'absent', 'default');
          return widget.spec.size === 2 ? requeue.after(300) : undefined;
        }),
    );
    await m.client.create(Widget, { metadata: { name: 'w', namespace: 'default' }, spec: { size: 1 } });

    const first = await eventually('the first reconcile', () => records.find((r) => r.name === 'w'));
    expect(first).toMatchObject({
      controller: 'widget',
      kind: { group: 'test.opgen.dev', version: 'v1', kind: 'Widget' },
      namespace: 'default',
      triggers: [{ type: 'watch', event: 'create', kind: 'Widget', namespace: 'default', name: 'w' }],
      result: { type: 'done' },
    });
    expect(first.durationMs).toBeGreaterThanOrEqual(0);
    // ctx.apply of a child that is not there yet: a create, then a patch of its managed fields.
    expect(first.calls.map(({ verb, kind, namespace, name, code }) => ({ verb, kind, namespace, name, code }))).toEqual([
      { verb: 'create', kind: 'ConfigMap', namespace: 'default', name: 'w-cm', code: 201 },
      { verb: 'patch', kind: 'ConfigMap', namespace: 'default', name: 'w-cm', code: 200 },
      { verb: 'get', kind: 'Secret', namespace: 'default', name: 'absent', code: 404 },
    ]);
    expect(first.calls[2]!.error).toMatch(/not found/);
    for (const call of first.calls) expect(call.startedAt).toBeGreaterThanOrEqual(first.startedAt);

    // The owned ConfigMap's own event may reconcile the Widget again; a change to the Widget
    // does, and a requeue.after is its result.
    await m.client.patch(Widget, { metadata: { name: 'w', namespace: 'default' } }, { spec: { size: 2 } });
    const second = await eventually('the reconcile of the update', () => records.find((r) => r.triggers.some((t) => t.type === 'watch' && t.kind === 'Widget' && t.event === 'update')));
    expect(second.result).toEqual({ type: 'requeue', afterMs: 300 });
    expect(second.calls.map((c) => `${c.verb} ${c.kind} ${c.code}`)).toEqual(['apply ConfigMap 200', 'get Secret 404']);

    // The requeue.after comes due: its reconcile says so.
    await eventually('the requeued reconcile', () => records.find((r) => r.triggers.some((t) => t.type === 'requeue' && t.reason === 'after')));
  });

  it('say what an error was', async () => {
    const records: ReconcileRecord[] = [];
    unsubscribe = onReconcile((r) => records.push(r));
    const m = await startManager((host) =>
      controller(host)
        .for(Widget)
        .reconcile(() => {
          throw terminal(new Error('size must be even'));
        }),
    );
    await m.client.create(Widget, { metadata: { name: 'odd', namespace: 'default' }, spec: { size: 1 } });
    const failed = await eventually('the reconcile', () => records[0]);
    expect(failed.result).toEqual({ type: 'error', message: 'size must be even', terminal: true });
  });

  it('start with the first listener: what was queued before has no cause noted, what comes after has', async () => {
    const m = await startManager((host) =>
      controller(host)
        .for(Widget)
        .owns(kinds.ConfigMap)
        .reconcile(async (widget, ctx) => {
          await ctx.apply(kinds.ConfigMap, { metadata: { name: `${widget.metadata.name}-cm` }, data: {} });
        }),
    );
    await m.client.create(Widget, { metadata: { name: 'quiet', namespace: 'default' }, spec: {} });
    await eventually('the child', () => m.client.get(kinds.ConfigMap, 'quiet-cm', 'default'));
    // Someone who starts listening later hears of later reconciles only, with their own cause.
    const records: ReconcileRecord[] = [];
    unsubscribe = onReconcile((r) => records.push(r));
    expect(records).toEqual([]);
    await m.client.patch(Widget, { metadata: { name: 'quiet', namespace: 'default' } }, { spec: { size: 3 } });
    const later = await eventually('the reconcile of the update', () => records.find((r) => r.triggers.some((t) => t.type === 'watch' && t.kind === 'Widget')));
    expect(later.triggers).toContainEqual({ type: 'watch', event: 'update', kind: 'Widget', namespace: 'default', name: 'quiet' });
  });
});
