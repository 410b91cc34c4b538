import { afterAll, beforeAll, expect, it } from 'vitest';
import { createClient, type Client } from '../../src/client/index.js';
import { controller } from '../../src/controller/index.js';
import { createManager, type Manager } from '../../src/manager/index.js';
import { installCRDs, startControlPlane, type ControlPlane } from '../../src/testing/index.js';
import { eventually } from '../fixtures/eventually.js';
import { Widget, WIDGET_CRD } from '../fixtures/kinds.js';

const NS = 'default';
const OBJECTS = 10_000;
const name = (i: number) => `w-${String(i).padStart(5, '0')}`;

let cp: ControlPlane;
let admin: Client;
let mgr: Manager | undefined;
let running: Promise<void> | undefined;

beforeAll(async () => {
  cp = await startControlPlane();
  admin = createClient(cp.kubeConfig);
  await installCRDs(cp.kubeConfig, WIDGET_CRD);
  let next = 0;
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      for (let i = next++; i < OBJECTS; i = next++) await admin.create(Widget, { metadata: { name: name(i), namespace: NS }, spec: { size: 1 } });
    }),
  );
}, 300_000);

afterAll(async () => {
  mgr?.stop();
  await running?.catch(() => {});
  await cp?.stop();
});

it('serves a user edit made right after a start with 10,000 objects before the initial backlog', async () => {
  const reconciled = new Map<string, number>();
  let initialDone = 0;
  let editSeenAfter: number | undefined;
  const last = name(OBJECTS - 1);
  mgr = createManager({ kubeConfig: cp.kubeConfig, handleSignals: false, logLevel: 'silent' });
  controller(mgr)
    .for(Widget)
    .reconcile(async (widget) => {
      // A little work per object, so that the backlog takes a while with one worker.
      await new Promise((resolve) => setTimeout(resolve, 1));
      const key = `${widget.metadata.name}=${widget.spec.size}`;
      if (reconciled.has(key)) return;
      reconciled.set(key, Date.now());
      if (widget.spec.size === 1) initialDone++;
      else editSeenAfter = initialDone;
    });
  const started = Date.now();
  running = mgr.start();
  await eventually('the backlog started', () => initialDone > 0, 60_000);
  // The last object of the list: first come, first served, it would wait for all the others.
  const edited = Date.now();
  await admin.patch(Widget, { metadata: { name: last, namespace: NS } }, { spec: { size: 2 } });
  await eventually('the edit reconciled', () => reconciled.has(`${last}=2`), 120_000);
  await eventually('the backlog done', () => initialDone === OBJECTS || (initialDone === OBJECTS - 1 && !reconciled.has(`${last}=1`)), 180_000);
  const backlogMs = Math.max(...[...reconciled.values()]) - started;
  console.log(
    `priority: the edit was reconciled ${reconciled.get(`${last}=2`)! - edited} ms after it was made, with ${OBJECTS - editSeenAfter!} of ${OBJECTS} initial objects still waiting; the backlog took ${(backlogMs / 1000).toFixed(1)} s`,
  );
  expect(editSeenAfter).toBeLessThan(OBJECTS / 2);
}, 400_000);
