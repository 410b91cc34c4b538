import { afterAll, beforeAll, expect, it } from 'vitest';
import { createClient, type Client } from '../../src/client/index.js';
import { channel, controller, type Request } from '../../src/controller/index.js';
import { createManager, type Manager } from '../../src/manager/index.js';
import { installCRDs, startControlPlane, type ControlPlane } from '../../src/testing/index.js';
import { eventually } from '../fixtures/eventually.js';
import { Widget, WIDGET_CRD } from '../fixtures/kinds.js';

// External event sources and the periodic reconcile-all trigger, through a real manager
// against a real API server.
const NS = 'default';
const NAMES = ['one', 'two', 'three'];

let cp: ControlPlane;
let admin: Client;
let mgr: Manager | undefined;
let running: Promise<void> | undefined;

beforeAll(async () => {
  cp = await startControlPlane();
  admin = createClient(cp.kubeConfig);
  await installCRDs(cp.kubeConfig, WIDGET_CRD);
  for (const name of NAMES) await admin.create(Widget, { metadata: { name, namespace: NS }, spec: { size: 1 } });
}, 120_000);

afterAll(async () => {
  mgr?.stop();
  await running?.catch(() => {});
  await cp?.stop();
});

it('reconciles what a channel and an async generator send, every object once per reconcileAllEvery period, and stops the sources with the manager', async () => {
  const count = (counts: Map<string, number>, name: string) => counts.set(name, (counts.get(name) ?? 0) + 1);
  const pushedCounts = new Map<string, number>();
  const periodicCounts = new Map<string, number>();
  const pushes = channel();
  let generatorStopped = false;
  const fromGenerator = channel();
  async function* external(): AsyncGenerator<Request> {
    try {
      for await (const request of fromGenerator) yield request;
    } finally {
      generatorStopped = true;
    }
  }

  mgr = createManager({ kubeConfig: cp.kubeConfig, handleSignals: false, logLevel: 'silent' });
  controller(mgr, { name: 'pushed' })
    .for(Widget)
    .watches(pushes)
    .watches(external())
    .reconcile(async (widget, ctx) => {
      count(pushedCounts, widget.metadata.name);
      await ctx.status.apply({ reconciledBy: 'pushed' });
    });
  controller(mgr, { name: 'periodic' })
    .for(Widget)
    .reconcileAllEvery('1s')
    .reconcile((widget) => void count(periodicCounts, widget.metadata.name));
  running = mgr.start();

  await eventually('the initial reconciles', () => NAMES.every((n) => (pushedCounts.get(n) ?? 0) >= 1 && (periodicCounts.get(n) ?? 0) >= 1), 60_000);
  // The status writes come back as events; wait until those reconciles are through too.
  await eventually('quiet', async () => (await admin.list(Widget, { namespace: NS })).every((w) => w.status?.reconciledBy === 'pushed'));
  await new Promise((resolve) => setTimeout(resolve, 500));
  const before = pushedCounts.get('two')!;

  pushes.send({ namespace: NS, name: 'two' });
  await eventually('two reconciled through the channel', () => pushedCounts.get('two') === before + 1);
  fromGenerator.send({ namespace: NS, name: 'three' });
  const threeBefore = pushedCounts.get('three')!;
  await eventually('three reconciled through the generator', () => pushedCounts.get('three') === threeBefore + 1);

  // No change at all, yet every object comes round again, period after period.
  const rounds = new Map(periodicCounts);
  await eventually('two more rounds of every widget', () => NAMES.every((n) => periodicCounts.get(n)! >= rounds.get(n)! + 2), 20_000);

  mgr.stop();
  await running;
  const after = new Map(pushedCounts);
  pushes.send({ namespace: NS, name: 'one' });
  // The generator was waiting inside its own loop: its return, asked for at the stop, runs
  // once that step settles, and what it yielded then is dropped.
  fromGenerator.send({ namespace: NS, name: 'one' });
  await eventually('the generator returned', () => generatorStopped);
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect(pushedCounts).toEqual(after);
}, 180_000);
