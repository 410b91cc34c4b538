import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type Client } from '../../src/client/index.js';
import { controller } from '../../src/controller/index.js';
import { createManager } from '../../src/manager/index.js';
import { installCRDs, startControlPlane, type ControlPlane } from '../../src/testing/index.js';
import { startNetworkCut, type NetworkCut } from '../cache/support.js';
import { eventually } from '../fixtures/eventually.js';
import { Widget, WIDGET_CRD } from '../fixtures/kinds.js';

const NS = 'default';
type Line = { level: string; msg: string; name?: string; err?: { message?: string } };

describe('a reconcile whose API call hangs', () => {
  let cp: ControlPlane;
  let admin: Client;
  const cuts: NetworkCut[] = [];

  beforeAll(async () => {
    cp = await startControlPlane();
    admin = createClient(cp.kubeConfig);
    await installCRDs(cp.kubeConfig, WIDGET_CRD);
  });
  afterAll(async () => {
    for (const cut of cuts) await cut.close();
    await cp?.stop();
  });

  /** A manager talking through its own relay; its reconcile of `name` freezes the relay, then reads. */
  async function managerFreezingOn(name: string, options: { reconcileTimeoutMs?: number; gracefulShutdownTimeoutMs?: number }) {
    const network = await startNetworkCut(cp.kubeConfig);
    cuts.push(network);
    const lines: Line[] = [];
    const outcomes: string[] = [];
    let started = false;
    let runs = 0;
    const mgr = createManager({
      kubeConfig: network.kubeConfig,
      handleSignals: false,
      gracefulShutdownTimeoutMs: options.gracefulShutdownTimeoutMs,
      logDestination: { write: (l: string) => void lines.push(JSON.parse(l)) },
    });
    controller(mgr, { reconcileTimeoutMs: options.reconcileTimeoutMs })
      .for(Widget)
      .reconcile(async (req, ctx) => {
        if (req.name === name) runs++;
        if (req.name !== name || outcomes.length > 0) return;
        started = true;
        network.stall();
        try {
          await ctx.client.uncached().get(Widget, req.name, req.namespace);
          outcomes.push('answered');
        } catch (error) {
          outcomes.push(`${(error as Error).name}: ${String((error as Error).cause)}`);
          throw error;
        } finally {
          network.heal();
        }
      });
    return { mgr, lines, outcomes, started: () => started, runs: () => runs, running: mgr.start() };
  }

  it('is cancelled by reconcileTimeoutMs, counted as an error and retried', async () => {
    const { mgr, lines, outcomes, runs, running } = await managerFreezingOn('slow', { reconcileTimeoutMs: 1_000 });
    try {
      await mgr.elected();
      await admin.create(Widget, { metadata: { name: 'slow', namespace: NS }, spec: { size: 1 } });
      await eventually('the hung call cancelled', () => outcomes.length > 0, 30_000);
      expect(outcomes).toEqual(['AbortError: Error: reconcile timed out']);
      const error = await eventually('the reconcile error logged', () => lines.find((l) => l.msg === 'Reconciler error' && l.name === 'slow'));
      expect(error.err?.message).toMatch(/^reconcile cancelled: still running after reconcileTimeout 1000 ms: GET .*: cancelled/);
      await eventually('the key retried', () => runs() >= 2, 10_000);
    } finally {
      mgr.stop();
      await running;
    }
  });

  it('is cancelled when the graceful shutdown times out, and the manager reports the timeout', async () => {
    const { mgr, lines, outcomes, started, running } = await managerFreezingOn('stuck', { gracefulShutdownTimeoutMs: 500 });
    await mgr.elected();
    await admin.create(Widget, { metadata: { name: 'stuck', namespace: NS }, spec: { size: 1 } });
    await eventually('the reconcile hanging', started, 10_000);
    mgr.stop();
    await expect(running).rejects.toThrow('graceful shutdown timed out after 500 ms with reconciles still running');
    await eventually('the hung call cancelled', () => outcomes.length > 0, 10_000);
    expect(outcomes).toEqual(['AbortError: Error: graceful shutdown timed out']);
    expect(lines.some((l) => l.msg === 'Reconcile cancelled' && l.name === 'stuck')).toBe(true);
    expect(lines.some((l) => l.msg === 'Reconciler error')).toBe(false);
  });
});
