import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, formatMicroTime, kinds, type Client } from '../../src/client/index.js';
import { controller } from '../../src/controller/index.js';
import { createManager, type Manager } from '../../src/manager/index.js';
import { installCRDs, startControlPlane, type ControlPlane } from '../../src/testing/index.js';
import { eventually } from '../fixtures/eventually.js';
import { Gadget, GADGET_CRD } from '../fixtures/kinds.js';

const NS = 'default';

describe('manager against a real API server', () => {
  let cp: ControlPlane;
  let client: Client;

  beforeAll(async () => {
    cp = await startControlPlane();
    client = createClient(cp.kubeConfig);
  });
  afterAll(async () => {
    await cp?.stop();
  });

  async function get(url: string): Promise<{ status: number; body: string }> {
    const response = await fetch(url);
    return { status: response.status, body: await response.text() };
  }

  it('serves /readyz 500 until the cache has synced, then 200; /healthz is 200 throughout; /metrics has the controller-runtime names after reconciles', async () => {
    // The Gadget CRD is not installed yet: the informer cannot list, the cache cannot sync.
    const mgr: Manager = createManager({
      kubeConfig: cp.kubeConfig,
      handleSignals: false,
      logLevel: 'silent',
      healthProbeBindAddress: '127.0.0.1:0',
      metricsBindAddress: '127.0.0.1:0',
    });
    let elected = false;
    void mgr.elected().then(() => (elected = true));
    controller(mgr, { maxConcurrentReconciles: 2 })
      .for(Gadget)
      .reconcile(async (req, ctx) => {
        const gadget = await ctx.client.get(Gadget, req.name, req.namespace);
        if (gadget?.spec.fail) throw new Error('gadget failure');
        if (gadget && gadget.status?.observedSize !== gadget.spec.size) {
          await ctx.client.patchStatus(Gadget, gadget, { status: { observedSize: gadget.spec.size ?? 0 } });
        }
      });
    const running = mgr.start();
    try {
      const probes = await eventually('probe server', () => mgr.healthProbeAddress);
      expect(await get(`http://${probes}/healthz`)).toEqual({ status: 200, body: 'ok' });
      const notReady = await get(`http://${probes}/readyz`);
      expect(notReady.status).toBe(500);
      expect(notReady.body).toContain('[-]cache-sync failed');
      expect(elected).toBe(false);

      await installCRDs(cp.kubeConfig, GADGET_CRD);
      await eventually('ready', async () => (await get(`http://${probes}/readyz`)).status === 200, 40_000);
      await mgr.elected();
      expect(await get(`http://${probes}/healthz`)).toEqual({ status: 200, body: 'ok' });

      await client.create(Gadget, { metadata: { name: 'g1', namespace: NS }, spec: { size: 2 } });
      await client.create(Gadget, { metadata: { name: 'g2', namespace: NS }, spec: { size: 1, fail: true } });
      await eventually('g1 reconciled', async () => (await client.get(Gadget, 'g1', NS))?.status?.observedSize === 2);

      const url = `http://${mgr.metricsAddress}/metrics`;
      const text = await eventually('g2 failures counted', async () => {
        const body = (await get(url)).body;
        return /^controller_runtime_reconcile_errors_total\{controller="gadget"\} [1-9]/m.test(body) ? body : undefined;
      });
      const ctrl = '{controller="gadget"}';
      const queue = '{name="gadget",controller="gadget"}';
      for (const series of [
        'controller_runtime_reconcile_total{controller="gadget",result="success"}',
        'controller_runtime_reconcile_total{controller="gadget",result="error"}',
        `workqueue_adds_total${queue}`,
        `workqueue_retries_total${queue}`,
        `controller_runtime_reconcile_time_seconds_count${ctrl}`,
        `workqueue_queue_duration_seconds_count${queue}`,
        `workqueue_work_duration_seconds_count${queue}`,
      ]) {
        expect(text, series).toMatch(new RegExp(`^${escape(series)} [1-9]`, 'm'));
      }
      for (const series of [
        'controller_runtime_reconcile_total{controller="gadget",result="requeue"}',
        'controller_runtime_reconcile_total{controller="gadget",result="requeue_after"}',
        `controller_runtime_terminal_reconcile_errors_total${ctrl}`,
        `controller_runtime_reconcile_panics_total${ctrl}`,
        `controller_runtime_active_workers${ctrl}`,
        `workqueue_depth${queue}`,
        `workqueue_unfinished_work_seconds${queue}`,
        `workqueue_longest_running_processor_seconds${queue}`,
        'process_cpu_seconds_total',
        'process_resident_memory_bytes',
      ]) {
        expect(text, series).toMatch(new RegExp(`^${escape(series)} \\d`, 'm'));
      }
      expect(text).toMatch(/^controller_runtime_max_concurrent_reconciles\{controller="gadget"\} 2$/m);
      expect(text).toMatch(/^controller_runtime_reconcile_time_seconds_bucket\{le="0.005",controller="gadget"\} \d+$/m);
      expect(text).toMatch(/^# TYPE workqueue_queue_duration_seconds histogram$/m);
    } finally {
      mgr.stop();
      await running;
    }
    // Stopped: the servers are gone.
    await expect(fetch(`http://${mgr.healthProbeAddress}/healthz`)).rejects.toThrow();
  }, 90_000);

  it('rejects start() and says so when a controller fails to start', async () => {
    const mgr = createManager({ kubeConfig: cp.kubeConfig, handleSignals: false, logLevel: 'silent', cacheSyncTimeoutMs: 60_000 });
    controller(mgr, { name: 'first' }).for(kinds.ConfigMap).reconcile(() => undefined);
    expect(() => controller(mgr, { name: 'first' }).for(kinds.Secret).reconcile(() => undefined)).toThrow('a controller named "first" already exists');
    mgr.addRunnable(async () => {
      throw new Error('runnable could not start');
    });
    await expect(mgr.start()).rejects.toThrow('runnable could not start');
  }, 60_000);

  it('on losing the lease logs, exits 1 and stops its controllers without waiting', async () => {
    const lines: Record<string, unknown>[] = [];
    const exits: number[] = [];
    const mgr = createManager({
      kubeConfig: cp.kubeConfig,
      handleSignals: false,
      logDestination: { write: (l: string) => void lines.push(JSON.parse(l)) },
      leaderElection: true,
      leaderElectionId: 'lease-loss.test',
      leaseDurationMs: 3_000,
      renewDeadlineMs: 2_000,
      retryPeriodMs: 500,
      exit: (code) => void exits.push(code),
    });
    let reconcileSignal: AbortSignal | undefined;
    controller(mgr)
      .for(kinds.ConfigMap)
      .reconcile(async (req, ctx) => {
        if (req.name !== 'hold') return;
        reconcileSignal = ctx.signal;
        await new Promise((r) => setTimeout(r, 60_000));
      });
    const running = mgr.start();
    await mgr.elected();
    await client.create(kinds.ConfigMap, { metadata: { name: 'hold', namespace: NS } });
    await eventually('the reconcile holding a worker', () => reconcileSignal);

    // Another candidate takes the lease over: renewals now conflict until the deadline passes.
    const lease = (await client.get(kinds.Lease, 'lease-loss.test', NS))!;
    await client.update(kinds.Lease, { ...lease, spec: { ...lease.spec, holderIdentity: 'someone-else', renewTime: formatMicroTime(new Date()) } });

    await expect(running).rejects.toThrow('leader election lost: lease lease-loss.test');
    expect(exits).toEqual([1]);
    expect(reconcileSignal!.aborted).toBe(true);
    expect(lines.some((l) => l.level === 'error' && l.msg === 'Leader election lost, exiting')).toBe(true);
    expect(await mgr.metrics.registry.metrics()).toMatch(/^leader_election_master_status\{name="lease-loss.test"\} 0$/m);
  }, 60_000);

  it('stops renewing the lease, without releasing it, when the graceful shutdown times out', async () => {
    const mgr = createManager({
      kubeConfig: cp.kubeConfig,
      handleSignals: false,
      logLevel: 'silent',
      leaderElection: true,
      leaderElectionId: 'shutdown-timeout.test',
      leaseDurationMs: 3_000,
      renewDeadlineMs: 2_000,
      retryPeriodMs: 500,
      gracefulShutdownTimeoutMs: 300,
    });
    let holding = false;
    controller(mgr)
      .for(kinds.ConfigMap)
      .reconcile(async (req) => {
        if (req.name !== 'never-ends') return;
        holding = true;
        // Ignores every signal, as a reconcile stuck in a loop would.
        await new Promise((r) => setTimeout(r, 30_000));
      });
    const running = mgr.start();
    await mgr.elected();
    await client.create(kinds.ConfigMap, { metadata: { name: 'never-ends', namespace: NS } });
    await eventually('the reconcile holding a worker', () => holding);
    mgr.stop();
    await expect(running).rejects.toThrow('graceful shutdown timed out');
    const after = (await client.get(kinds.Lease, 'shutdown-timeout.test', NS))!.spec!;
    // Several renew periods later the record is untouched: nobody renews it, it was not released.
    await new Promise((r) => setTimeout(r, 4 * 500));
    const later = (await client.get(kinds.Lease, 'shutdown-timeout.test', NS))!.spec!;
    expect(later.renewTime).toBe(after.renewTime);
    expect(later.holderIdentity).toBe(after.holderIdentity);
    expect(later.holderIdentity).not.toBe('');
  }, 60_000);
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
