import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type Client } from '../../src/client/index.js';
import { controller } from '../../src/controller/index.js';
import { createManager, type Manager } from '../../src/manager/index.js';
import { installCRDs, startControlPlane, type ControlPlane } from '../../src/testing/index.js';
import { startNetworkCut, type NetworkCut } from '../cache/support.js';
import { eventually } from '../fixtures/eventually.js';
import { Widget, WIDGET_CRD } from '../fixtures/kinds.js';

const NS = 'default';
type Line = { level: string; msg: string; kind?: string };

/**
 * An operator whose only path to the API server is a relay the test can black-hole, with
 * default settings: what it notices, and how fast, is what a user gets.
 */
describe('an operator behind a network that silently drops its connections', () => {
  let cp: ControlPlane;
  let admin: Client;
  let network: NetworkCut;
  let mgr: Manager;
  let running: Promise<void>;
  const lines: Line[] = [];

  beforeAll(async () => {
    cp = await startControlPlane();
    admin = createClient(cp.kubeConfig);
    await installCRDs(cp.kubeConfig, WIDGET_CRD);
    network = await startNetworkCut(cp.kubeConfig);
    mgr = createManager({
      kubeConfig: network.kubeConfig,
      handleSignals: false,
      healthProbeBindAddress: '127.0.0.1:0',
      logDestination: { write: (l: string) => void lines.push(JSON.parse(l)) },
    });
    controller(mgr, { maxConcurrentReconciles: 2 })
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
    await network?.close();
    await cp?.stop();
  });

  const ready = async () => (await fetch(`http://${mgr.healthProbeAddress}/readyz`)).status === 200;
  const stalls = () => lines.filter((l) => l.level === 'warn' && l.msg.startsWith('watch of Widget.test.opgen.dev stalled')).length;

  async function reconciled(names: Record<string, number>, timeoutMs: number): Promise<void> {
    await eventually(
      `${Object.keys(names).join(', ')} reconciled`,
      async () => {
        for (const [name, size] of Object.entries(names)) {
          if ((await admin.get(Widget, name, NS))?.status?.observedSize !== size) return false;
        }
        return true;
      },
      timeoutMs,
    );
  }

  it('open connections black-holed, new ones passing: the stall is logged and every change made during it is reconciled within 90 s', async () => {
    await admin.create(Widget, { metadata: { name: 'before', namespace: NS }, spec: { size: 1 } });
    await reconciled({ before: 1 }, 30_000);
    expect(await ready()).toBe(true);

    const start = Date.now();
    network.blackHoleOpen();
    await admin.create(Widget, { metadata: { name: 'during', namespace: NS }, spec: { size: 2 } });
    await admin.patch(Widget, { metadata: { name: 'before', namespace: NS } }, { spec: { size: 3 } });
    await reconciled({ before: 3, during: 2 }, 90_000);
    const elapsedMs = Date.now() - start;
    console.log(`half-open: changes reconciled ${elapsedMs} ms after the black hole began`);
    expect(elapsedMs).toBeLessThan(90_000);
    expect(stalls()).toBeGreaterThanOrEqual(1);
  }, 120_000);

  it('all traffic frozen: the stall is logged, /readyz turns false, and once the network is back the changes are reconciled and /readyz is true', async () => {
    const stallsBefore = stalls();
    network.stall();
    await admin.create(Widget, { metadata: { name: 'frozen', namespace: NS }, spec: { size: 4 } });
    await eventually('/readyz false', async () => !(await ready()), 120_000);
    const body = await (await fetch(`http://${mgr.healthProbeAddress}/readyz`)).text();
    expect(body).toContain('[-]informers failed: Widget.test.opgen.dev:');
    expect(stalls()).toBeGreaterThan(stallsBefore);

    network.heal();
    await reconciled({ frozen: 4 }, 90_000);
    await eventually('/readyz true again', ready, 60_000);
  }, 240_000);
});
