import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type Client } from '../../src/client/index.js';
import { controller } from '../../src/controller/index.js';
import { createManager, type Manager } from '../../src/manager/index.js';
import { installCRDs, startControlPlane, type ControlPlane } from '../../src/testing/index.js';
import { eventually } from '../fixtures/eventually.js';
import { Widget, WIDGET_CRD } from '../fixtures/kinds.js';

// A finalizer's cleanup on the real API server while other writers keep changing the
// objects being deleted: each change queues one more reconcile, which must not find the
// object its cleanup already released. The API server answers the write that removes the
// last finalizer with the object's old resourceVersion and deletes it in a step of its own,
// so the cache may still hold, or even newly receive, a copy that carries the finalizer.
const NS = 'default';
const FINALIZER = 'test.opgen.dev/cleanup';
const OBJECTS = 40;
const name = (i: number) => `fin-${i}`;
type Line = { level: number | string; msg: string; err?: { message?: string } };

describe('a finalizer under concurrent writes (real API server)', () => {
  let cp: ControlPlane;
  let admin: Client;
  let mgr: Manager;
  let running: Promise<void>;
  const lines: Line[] = [];
  const cleanups = new Map<string, number>();

  beforeAll(async () => {
    cp = await startControlPlane();
    await installCRDs(cp.kubeConfig, WIDGET_CRD);
    admin = createClient(cp.kubeConfig);
    mgr = createManager({ kubeConfig: cp.kubeConfig, handleSignals: false, logDestination: { write: (l: string) => void lines.push(JSON.parse(l)) } });
    controller(mgr, { maxConcurrentReconciles: 4 })
      .for(Widget)
      .reconcile((widget, ctx) =>
        ctx.finalize(FINALIZER, {
          apply: async () => {},
          cleanup: async () => {
            cleanups.set(widget.metadata.name, (cleanups.get(widget.metadata.name) ?? 0) + 1);
            // Releasing what the finalizer guards takes a moment, during which writes arrive.
            await sleep(50);
          },
        }),
      );
    running = mgr.start();
    await mgr.elected();
  });
  afterAll(async () => {
    mgr?.stop();
    await running?.catch(() => {});
    await cp?.stop();
  });

  it(`runs the cleanup of each of ${OBJECTS} objects exactly once, and no reconcile errors`, async () => {
    await Promise.all(Array.from({ length: OBJECTS }, (_, i) => admin.create(Widget, { metadata: { name: name(i), namespace: NS }, spec: { size: 1 } })));
    await eventually(
      'every widget carries the finalizer',
      async () => (await admin.list(Widget, { namespace: NS })).filter((w) => w.metadata?.finalizers?.includes(FINALIZER)).length === OBJECTS,
      60_000,
    );

    let writes = 0;
    // Another writer keeps changing each object from just before its deletion until it is
    // gone; the API server may store one of those changes between the write that removes
    // the finalizer and the deletion that write causes.
    const touch = async (i: number): Promise<void> => {
      for (let beat = 0; ; beat++) {
        try {
          await admin.patch(Widget, { metadata: { name: name(i), namespace: NS } }, { metadata: { annotations: { beat: String(beat) } } });
          writes++;
        } catch {
          return;
        }
      }
    };
    const writers: Promise<void>[] = [];
    for (let i = 0; i < OBJECTS; i++) {
      writers.push(touch(i));
      await sleep(10);
      await admin.delete(Widget, { metadata: { name: name(i), namespace: NS } });
      await sleep(100);
    }
    await eventually('every widget gone', async () => (await admin.list(Widget, { namespace: NS })).length === 0, 60_000);
    await Promise.all(writers);
    // Events still queued meet the cache without the objects.
    await sleep(2_000);

    const twice = [...cleanups].filter(([, n]) => n !== 1);
    const errors = lines.filter((l) => l.msg === 'Reconciler error').map((l) => l.err?.message);
    const conflicts = lines.filter((l) => l.msg === 'Reconcile conflict, retrying').length;
    console.log(
      `${writes} concurrent writes; cleanups: ${[...cleanups.values()].reduce((a, b) => a + b, 0)} for ${cleanups.size} objects; ` +
        `reconciler errors: ${errors.length}; reconciles retried on a conflict: ${conflicts}`,
    );
    expect(cleanups.size).toBe(OBJECTS);
    expect(twice).toEqual([]);
    expect(errors).toEqual([]);
  }, 180_000);
});
