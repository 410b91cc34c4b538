import { afterEach, describe, expect, it, vi } from 'vitest';

vi.setConfig({ testTimeout: 15_000 });
import { controller, kinds, requeue, type Manager } from '../../src/index.js';
import { Lease } from '../../src/client/kinds.js';
import { createManager } from '../../src/manager/index.js';
import type { Cluster } from '../../src/rest/cluster.js';
import { createMemoryCluster } from '../../src/testing/memory/cluster.js';
import { createFakeClock, type FakeClock } from '../../src/testing/memory/clock.js';
import { runUntilIdle } from '../../src/testing/memory/idle.js';
import { reconcileOnce } from '../../src/testing/memory/reconcile-once.js';

// Managers on a memory cluster whose fake clock starts at a known time.
interface World {
  clock: FakeClock;
  cluster: Cluster;
  close(): void;
  managers: Array<{ mgr: Manager; running?: Promise<void> }>;
}
let world: World | undefined;

async function memoryWorld(): Promise<World> {
  const memory = await createMemoryCluster({ clock: createFakeClock({ start: '2026-03-01T12:00:00Z' }) });
  world = { clock: memory.clock, cluster: memory.cluster, close: () => memory.close(), managers: [] };
  return world;
}

function manager(w: World, options: Parameters<typeof createManager>[0] = {}): Manager {
  const mgr = createManager({ cluster: w.cluster, handleSignals: false, logLevel: 'silent', ...options });
  w.managers.push({ mgr });
  return mgr;
}

function start(w: World, mgr: Manager): Promise<void> {
  const entry = w.managers.find((m) => m.mgr === mgr)!;
  entry.running = mgr.start();
  return entry.running;
}

afterEach(async () => {
  for (const { mgr, running } of world?.managers ?? []) {
    mgr.stop();
    await running?.catch(() => {});
  }
  world?.close();
  world = undefined;
});

describe('a manager on the memory cluster runs on its fake clock', () => {
  it('reconciles a new object in one runUntilIdle, and reaches requeue.after only once time gets there', async () => {
    const w = await memoryWorld();
    const mgr = manager(w);
    const seen: Array<{ at: number; wall: string }> = [];
    controller(mgr)
      .for(kinds.ConfigMap)
      .reconcile(() => {
        seen.push({ at: w.clock.now(), wall: w.clock.wall().toISOString() });
        return requeue.after('5m');
      });
    void start(w, mgr);
    const created = await mgr.client.create(kinds.ConfigMap, { metadata: { name: 'web', namespace: 'default' }, data: { a: '1' } });
    // The server stamps the object on the cluster's clock.
    expect(created.metadata.creationTimestamp).toBe('2026-03-01T12:00:00Z');

    await runUntilIdle(w.clock);
    expect(seen.map((s) => s.at)).toEqual([0]);
    const began = performance.now();
    await runUntilIdle(w.clock, { horizon: '5m' });
    expect(seen).toEqual([
      { at: 0, wall: '2026-03-01T12:00:00.000Z' },
      { at: 300_000, wall: '2026-03-01T12:05:00.000Z' },
    ]);
    // Five minutes of the cluster's time in a moment of real time.
    expect(performance.now() - began).toBeLessThan(2_000);
  });

  it('follows a reconcile through its writes and their watch events: the owned child and the status are there when it returns', async () => {
    const w = await memoryWorld();
    const mgr = manager(w);
    controller(mgr)
      .for(kinds.ConfigMap, { predicates: [({ object }) => !object.metadata?.name?.endsWith('-child')] })
      .owns(kinds.ConfigMap)
      .reconcile(async (cm, ctx) => {
        await ctx.create(kinds.ConfigMap, { metadata: { name: `${cm.metadata.name}-child` }, data: { copy: cm.data?.a ?? '' } }).catch(() => undefined);
      });
    void start(w, mgr);
    await mgr.client.create(kinds.ConfigMap, { metadata: { name: 'web', namespace: 'default' }, data: { a: '1' } });
    await runUntilIdle(w.clock);
    const child = await mgr.client.uncached().get(kinds.ConfigMap, 'web-child', 'default');
    expect(child?.data).toEqual({ copy: '1' });
    expect(child?.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'ConfigMap', name: 'web', controller: true });
    // And the cache the next reconcile reads from has seen it too.
    expect(mgr.cache.informerFor(kinds.ConfigMap).get('web-child', 'default')).toBeDefined();
  });

  it('stamps the events a reconcile records on the fake clock', async () => {
    const w = await memoryWorld();
    const mgr = manager(w);
    controller(mgr)
      .for(kinds.ConfigMap)
      .reconcile((cm, ctx) => ctx.recorder.event(cm, 'Normal', 'Seen', 'seen by the test'));
    void start(w, mgr);
    await mgr.client.create(kinds.ConfigMap, { metadata: { name: 'web', namespace: 'default' } });
    await runUntilIdle(w.clock);
    await mgr.eventRecorder('configmap').flush();
    const [event] = await mgr.client.uncached().list(kinds.Event, { namespace: 'default' });
    expect(event?.reason).toBe('Seen');
    expect(event?.eventTime).toBe('2026-03-01T12:00:00.000000Z');
  });

  it('retries a failing reconcile on the fake clock: 5 ms, 10 ms, 20 ms of backoff', async () => {
    const w = await memoryWorld();
    const mgr = manager(w);
    const at: number[] = [];
    controller(mgr)
      .for(kinds.ConfigMap)
      .reconcile(() => {
        at.push(w.clock.now());
        if (at.length < 4) throw new Error('not yet');
      });
    void start(w, mgr);
    await mgr.client.create(kinds.ConfigMap, { metadata: { name: 'web', namespace: 'default' } });
    await runUntilIdle(w.clock);
    expect(at).toEqual([0, 5, 15, 35]);
  });

  it('renews the lease on the fake clock, and a standby takes over a lease duration after the leader stopped renewing', async () => {
    const w = await memoryWorld();
    const election = { leaderElection: true, leaderElectionId: 'clock-test', leaderElectionNamespace: 'default', leaderElectionReleaseOnCancel: false };
    const leader = manager(w, election);
    const standby = manager(w, election);
    void start(w, leader);
    await runUntilIdle(w.clock);
    await leader.elected();
    let standbyElectedWall: number | undefined;
    void standby.elected().then(() => {
      standbyElectedWall = w.clock.wall().getTime();
    });
    void start(w, standby);
    await runUntilIdle(w.clock, { horizon: '1m' });
    const lease = await leader.client.uncached().get(Lease, 'clock-test', 'default');
    // Renewed every 2 s of fake time by the leader, never taken by the standby.
    expect(lease?.spec?.renewTime).toBe('2026-03-01T12:01:00.000000Z');
    expect(standbyElectedWall).toBeUndefined();

    leader.stop();
    await w.managers[0]!.running;
    const lastRenewal = Date.parse(String((await standby.client.uncached().get(Lease, 'clock-test', 'default'))?.spec?.renewTime));
    await runUntilIdle(w.clock, { horizon: '30s' });
    expect(standbyElectedWall).toBeDefined();
    // As client-go's, the standby times the 15 s lease from when it saw the last renewal, on its
    // first retry after it, and takes the lease on its first retry after that; a retry comes
    // 2 s to 4.4 s (× 2.2 jitter) after the one before.
    expect(standbyElectedWall! - lastRenewal).toBeGreaterThanOrEqual(15_000);
    expect(standbyElectedWall! - lastRenewal).toBeLessThanOrEqual(4_400 + 15_000 + 4_400);
  });
});

describe('reconcileOnce', () => {
  it('runs one reconcile of a controller whose manager is not started, and hands back its result', async () => {
    const w = await memoryWorld();
    const mgr = manager(w);
    const pages = controller(mgr)
      .for(kinds.ConfigMap)
      .reconcile(async (cm, ctx) => {
        await ctx.create(kinds.ConfigMap, { metadata: { name: `${cm.metadata.name}-child` }, data: cm.data ?? {} });
        return requeue.after('30s');
      });
    const cm = await mgr.client.create(kinds.ConfigMap, { metadata: { name: 'web', namespace: 'default' }, data: { a: '1' } });
    expect(await reconcileOnce(pages, cm)).toEqual({ requeueAfter: 30_000 });
    expect((await mgr.client.get(kinds.ConfigMap, 'web-child', 'default'))?.data).toEqual({ a: '1' });
    // What the reconcile throws reaches the test: the child exists now.
    await expect(reconcileOnce(pages, { namespace: 'default', name: 'web' })).rejects.toThrow(/already exists/);
  });

  it('refuses a controller whose manager runs it: its workers would reconcile too', async () => {
    const w = await memoryWorld();
    const mgr = manager(w);
    const pages = controller(mgr).for(kinds.ConfigMap).reconcile(() => {});
    void start(w, mgr);
    await runUntilIdle(w.clock);
    await expect(reconcileOnce(pages, { namespace: 'default', name: 'web' })).rejects.toThrow(/is running in its manager/);
  });
});
