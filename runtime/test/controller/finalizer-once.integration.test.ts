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
// object its cleanup already released (the cache may still hold the copy from before the
// finalizer was removed).
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

    let writing = true;
    let writes = 0;
    // Writers touch every object, deleting or not, until the end: each change is an event.
    const writers = Array.from({ length: 4 }, async (_, w) => {
      for (let round = 0; writing; round++) {
        for (let i = w; i < OBJECTS && writing; i += 4) {
          await admin
            .patch(Widget, { metadata: { name: name(i), namespace: NS } }, { metadata: { annotations: { beat: String(round) } } })
            .then(() => writes++)
            .catch(() => {});
        }
      }
    });
    await sleep(500);
    for (let i = 0; i < OBJECTS; i++) {
      await admin.delete(Widget, { metadata: { name: name(i), namespace: NS } });
      await sleep(25);
    }
    await eventually('every widget gone', async () => (await admin.list(Widget, { namespace: NS })).length === 0, 60_000);
    // Events still queued meet the cache without the objects.
    await sleep(2_000);
    writing = false;
    await Promise.all(writers);

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
