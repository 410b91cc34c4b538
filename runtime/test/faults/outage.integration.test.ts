import { afterAll, beforeAll, expect, it } from 'vitest';
import { createClient, type Client } from '../../src/client/index.js';
import { controller } from '../../src/controller/index.js';
import { createManager, type Manager } from '../../src/manager/index.js';
import { installCRDs, startControlPlane, type ControlPlane } from '../../src/testing/index.js';
import { eventually } from '../fixtures/eventually.js';
import { Widget, WIDGET_CRD } from '../fixtures/kinds.js';

const NS = 'default';
const OUTAGE_MS = 30_000;

let cp: ControlPlane;
let admin: Client;
let mgr: Manager;
let running: Promise<void>;
/** When each `name=size` was first reconciled. */
const reconciled = new Map<string, number>();

beforeAll(async () => {
  cp = await startControlPlane();
  admin = createClient(cp.kubeConfig);
  await installCRDs(cp.kubeConfig, WIDGET_CRD);
  mgr = createManager({ kubeConfig: cp.kubeConfig, handleSignals: false, logLevel: 'silent' });
  controller(mgr)
    .for(Widget)
    .reconcile(async (req, ctx) => {
      const widget = await ctx.client.get(Widget, req.name, req.namespace);
      const key = `${req.name}=${widget?.spec.size}`;
      if (!reconciled.has(key)) reconciled.set(key, Date.now());
    });
  running = mgr.start();
});

afterAll(async () => {
  mgr?.stop();
  await running?.catch(() => {});
  await cp?.stop();
});

it('reconciles a change made after a 30 s API server outage within seconds of the server being ready', async () => {
  await admin.create(Widget, { metadata: { name: 'w', namespace: NS }, spec: { size: 1 } });
  await eventually('w reconciled before the outage', () => reconciled.has('w=1'), 30_000);

  await cp.restartApiServer({ downMs: OUTAGE_MS });
  const ready = Date.now();
  await admin.patch(Widget, { metadata: { name: 'w', namespace: NS } }, { spec: { size: 2 } });
  await eventually('the change after the outage reconciled', () => reconciled.has('w=2'), 60_000);
  const afterReady = reconciled.get('w=2')! - ready;
  console.log(`outage recovery: first reconcile ${(afterReady / 1000).toFixed(1)} s after the API server was ready again (outage ${OUTAGE_MS / 1000} s)`);
  // The informers' backoff has grown to 13–26 s after 30 s of failures; the end of the
  // outage must end it (the target is 5 s; the bound leaves room for a loaded CI machine).
  expect(afterReady).toBeLessThan(8_000);
}, 180_000);
