import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, kinds, type Client } from '../../src/client/index.js';
import { controller, requeue } from '../../src/controller/index.js';
import { createManager, type Manager } from '../../src/manager/index.js';
import { installCRDs, startControlPlane, type ControlPlane } from '../../src/testing/index.js';
import { eventually } from '../fixtures/eventually.js';
import { Sprocket, SPROCKET_CRD } from '../fixtures/kinds.js';

const NS = 'default';
const FINALIZER = 'test.opgen.dev/cleanup';
const FOREIGN = 'other.example.com/keep';

/**
 * The object-first API against a real API server: one Sprocket controller whose
 * behaviour each object picks with `spec.mode`.
 */
describe('object-first reconcile against a real API server', () => {
  let cp: ControlPlane;
  let mgr: Manager;
  let running: Promise<void>;
  let client: Client;
  /** Reconcile starts per object name, with their time. */
  const calls = new Map<string, number[]>();
  const callsOf = (name: string) => calls.get(name) ?? [];
  const cleanups = new Map<string, number>();
  /** Cleanups of these objects throw this many times before they succeed. */
  const cleanupFailures = new Map<string, number>();

  beforeAll(async () => {
    cp = await startControlPlane();
    await installCRDs(cp.kubeConfig, SPROCKET_CRD);
    client = createClient(cp.kubeConfig, { fieldManager: 'test' });
    mgr = createManager({ kubeConfig: cp.kubeConfig, handleSignals: false, logLevel: 'error', logDestination: { write: () => undefined } });

    controller(mgr)
      .for(Sprocket)
      .owns(kinds.ConfigMap)
      .onError((_error, sprocket) => {
        if (sprocket.spec.mode === 'fail') return requeue.after('400ms');
        if (sprocket.spec.mode === 'failQuiet') return undefined; // wait for the next change
        return requeue.now(); // the default: the key's backoff
      })
      .reconcile(async (sprocket, ctx) => {
        const name = sprocket.metadata.name;
        calls.set(name, [...callsOf(name), performance.now()]);
        switch (sprocket.spec.mode) {
          case 'finalize':
            return ctx.finalize(FINALIZER, {
              apply: async () => {
                await ctx.apply(kinds.ConfigMap, { metadata: { name }, data: { size: String(sprocket.spec.size ?? 0) } });
              },
              cleanup: () => {
                cleanups.set(name, (cleanups.get(name) ?? 0) + 1);
                const failures = cleanupFailures.get(name) ?? 0;
                if (failures > 0) {
                  cleanupFailures.set(name, failures - 1);
                  throw new Error('the external resource is still there');
                }
              },
            });
          case 'status':
            await ctx.status.apply({ observedSize: sprocket.spec.size ?? 0 });
            await ctx.status.setCondition({ type: 'Ready', status: 'True', reason: 'Observed', message: `size ${sprocket.spec.size ?? 0}` });
            return;
          case 'requeue':
            return requeue.after('300ms');
          case 'fail':
          case 'failQuiet':
            throw new Error(`sprocket ${name} fails`);
        }
      });

    running = mgr.start();
    await mgr.elected();
  });

  afterAll(async () => {
    mgr?.stop();
    await running;
    await cp?.stop();
  });

  it('finalize: adds its finalizer before apply, cleans up on delete (retrying a cleanup that throws), removes only its own finalizer', async () => {
    await client.create(Sprocket, { metadata: { name: 'fin', namespace: NS, finalizers: [FOREIGN] }, spec: { mode: 'finalize', size: 2 } });
    const child = await eventually('the ConfigMap apply wrote', () => client.get(kinds.ConfigMap, 'fin', NS));
    expect(child.data).toEqual({ size: '2' });
    expect(child.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'Sprocket', name: 'fin', controller: true, blockOwnerDeletion: true });
    const live = await client.get(Sprocket, 'fin', NS);
    expect(live?.metadata?.finalizers).toEqual([FOREIGN, FINALIZER]);
    expect(cleanups.get('fin')).toBeUndefined();

    cleanupFailures.set('fin', 2);
    await client.delete(Sprocket, { metadata: { name: 'fin', namespace: NS } });
    await eventually('three cleanups (two failed)', () => (cleanups.get('fin') ?? 0) >= 3);
    const finalizers = await eventually('our finalizer removed', async () => {
      const current = await client.get(Sprocket, 'fin', NS);
      return current?.metadata?.finalizers?.includes(FINALIZER) === false && current.metadata.finalizers;
    });
    // The other owner's finalizer stays, so the object is still there, being deleted.
    expect(finalizers).toEqual([FOREIGN]);
    expect(cleanups.get('fin')).toBe(3);

    await client.patch(Sprocket, { metadata: { name: 'fin', namespace: NS } }, { metadata: { finalizers: null } });
    await eventually('the Sprocket gone', async () => (await client.get(Sprocket, 'fin', NS)) === undefined);
    expect(cleanups.get('fin')).toBe(3);
  });

  it('finalize: a cleanup that keeps throwing keeps the finalizer', async () => {
    await client.create(Sprocket, { metadata: { name: 'stuck', namespace: NS }, spec: { mode: 'finalize' } });
    await eventually('finalizer added', async () => (await client.get(Sprocket, 'stuck', NS))?.metadata?.finalizers?.includes(FINALIZER));
    cleanupFailures.set('stuck', Number.MAX_SAFE_INTEGER);
    await client.delete(Sprocket, { metadata: { name: 'stuck', namespace: NS } });
    await eventually('cleanup retried', () => (cleanups.get('stuck') ?? 0) >= 3);
    const live = await client.get(Sprocket, 'stuck', NS);
    expect(live?.metadata?.deletionTimestamp).toBeDefined();
    expect(live?.metadata?.finalizers).toEqual([FINALIZER]);

    cleanupFailures.set('stuck', 0);
    await eventually('the Sprocket gone once cleanup succeeds', async () => (await client.get(Sprocket, 'stuck', NS)) === undefined);
  });

  it('status.apply and setCondition keep the conditions another field manager wrote; lastTransitionTime stays while the status does', async () => {
    await client.create(Sprocket, { metadata: { name: 'st', namespace: NS }, spec: { mode: 'idle', size: 1 } });
    const other = client.withFieldManager('other-controller');
    await other.applyStatus(Sprocket, {
      metadata: { name: 'st', namespace: NS },
      status: { conditions: [{ type: 'External', status: 'True', reason: 'Elsewhere', message: 'set by another manager', lastTransitionTime: '2026-01-01T00:00:00Z' }] },
    });

    await client.patch(Sprocket, { metadata: { name: 'st', namespace: NS } }, { spec: { mode: 'status' } });
    const first = await eventually('Ready set', async () => {
      const current = await client.get(Sprocket, 'st', NS);
      return current?.status?.conditions?.some((c) => c.type === 'Ready') && current;
    });
    expect(first.status?.observedSize).toBe(1);
    expect(first.status?.conditions?.map((c) => c.type).sort()).toEqual(['External', 'Ready']);
    const ready = first.status!.conditions!.find((c) => c.type === 'Ready')!;
    expect(ready).toMatchObject({ status: 'True', reason: 'Observed', message: 'size 1', observedGeneration: first.metadata!.generation });

    // Transition times have second precision: a change within the same second would not show.
    await new Promise((r) => setTimeout(r, 1_100));
    await client.patch(Sprocket, { metadata: { name: 'st', namespace: NS } }, { spec: { size: 5 } });
    const second = await eventually('the new size observed', async () => {
      const current = await client.get(Sprocket, 'st', NS);
      const again = current?.status?.conditions?.find((c) => c.type === 'Ready');
      return again?.message === 'size 5' && current;
    });
    expect(second.status?.observedSize).toBe(5);
    const readyAgain = second.status!.conditions!.find((c) => c.type === 'Ready')!;
    expect(readyAgain.observedGeneration).toBe(second.metadata!.generation);
    expect(readyAgain.lastTransitionTime).toBe(ready.lastTransitionTime);
    expect(second.status?.conditions?.find((c) => c.type === 'External')).toMatchObject({ status: 'True', reason: 'Elsewhere' });
  });

  it('requeue.after reconciles again after the delay without any event', async () => {
    await client.create(Sprocket, { metadata: { name: 'rq', namespace: NS }, spec: { mode: 'requeue' } });
    await eventually('four reconciles', () => callsOf('rq').length >= 4, 30_000);
    await client.patch(Sprocket, { metadata: { name: 'rq', namespace: NS } }, { spec: { mode: 'idle' } });
    const times = callsOf('rq');
    const gaps = times.slice(1, 4).map((t, i) => t - times[i]!);
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(250);
  });

  it('onError decides what follows a failure: its delay, or waiting for the next change', async () => {
    await client.create(Sprocket, { metadata: { name: 'err', namespace: NS }, spec: { mode: 'fail' } });
    await eventually('three failed reconciles', () => callsOf('err').length >= 3, 30_000);
    await client.patch(Sprocket, { metadata: { name: 'err', namespace: NS } }, { spec: { mode: 'idle' } });
    const times = callsOf('err');
    // The default backoff would retry after 5, 10, 20 ms.
    for (const gap of times.slice(1, 3).map((t, i) => t - times[i]!)) expect(gap).toBeGreaterThanOrEqual(350);

    await client.create(Sprocket, { metadata: { name: 'quiet', namespace: NS }, spec: { mode: 'failQuiet' } });
    await eventually('the first failure', () => callsOf('quiet').length >= 1);
    await new Promise((r) => setTimeout(r, 1_500));
    expect(callsOf('quiet')).toHaveLength(1);
    await client.patch(Sprocket, { metadata: { name: 'quiet', namespace: NS } }, { spec: { size: 1 } });
    await eventually('a change reconciles it again', () => callsOf('quiet').length === 2);
  });
});
