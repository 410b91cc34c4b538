import { KubeConfig } from '@kubernetes/client-node';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { channel, controller, createClient, createManager, kinds, requeue, type Manager } from '../../src/index.js';
import { defineKind } from '../../src/api/kind.js';
import { staticClusters, type StaticClusters } from '../../src/multicluster/index.js';
import { createFakeClock } from '../../src/testing/memory/clock.js';
import { createMemoryCluster, type MemoryCluster } from '../../src/testing/memory/cluster.js';
import { widgetCRD } from '../memory/support.js';

interface Widget {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string };
  spec?: { message?: string; poll?: boolean };
  status?: { cluster?: string };
}
const Widget = defineKind<Widget, true>({ group: 'example.com', version: 'v1', kind: 'Widget', plural: 'widgets', namespaced: true });

const clock = createFakeClock();
let host: MemoryCluster | undefined;
let members: MemoryCluster[] = [];
let mgr: Manager | undefined;
let running: Promise<void> | undefined;

afterEach(async () => {
  mgr?.stop();
  await running;
  for (const memory of [host, ...members]) memory?.close();
  members = [];
});

/** `count` memory clusters on one clock, each with the Widget CRD and one Widget `w` in `default`. */
async function fleetOf(count: number): Promise<MemoryCluster[]> {
  const made = await Promise.all(
    Array.from({ length: count }, () => createMemoryCluster({ clock, crds: [widgetCRD()], objects: [{ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'default' }, spec: { message: 'hi' } }] })),
  );
  members.push(...made);
  return made;
}

/** A manager on `host` reconciling Widgets of the provider's clusters: a ConfigMap per Widget naming its cluster, and the cluster in the status. */
async function start(clusters: StaticClusters) {
  host = await createMemoryCluster({ clock });
  mgr = createManager({ cluster: host.cluster, clusters, handleSignals: false, logLevel: (process.env.MEMLOG as never) ?? 'silent' });
  const reconciled: string[] = [];
  controller(mgr)
    .for(Widget)
    .owns(kinds.ConfigMap)
    .reconcile(async (widget, ctx) => {
      const cluster = ctx.cluster.name;
      reconciled.push(cluster);
      await ctx.apply(kinds.ConfigMap, { metadata: { name: `${widget.metadata.name}-config` }, data: { cluster, message: widget.spec?.message ?? '' } });
      await ctx.status.apply({ cluster });
      if (widget.spec?.poll) return requeue.after('1m');
    });
  running = mgr.start();
  await mgr.elected();
  return reconciled;
}

const names = (count: number, prefix = 'c') => Array.from({ length: count }, (_, i) => `${prefix}-${i}`);
/** A client straight to one memory cluster (no cache): the test's view of it. */
const clientOf = (memory: MemoryCluster) => createClient(memory.cluster);
const configOf = (memory: MemoryCluster) => clientOf(memory).get(kinds.ConfigMap, 'w-config', 'default');

describe('a manager with a cluster provider on 50 memory clusters', () => {
  test('reconciles the Widgets of every cluster with that cluster\'s client, and .owns() maps a child back within its cluster', async () => {
    const fleet = await fleetOf(50);
    const reconciled = await start(staticClusters(Object.fromEntries(names(50).map((name, i) => [name, fleet[i]!.cluster]))));
    await runUntilIdle();

    expect(mgr!.clusters!.names()).toHaveLength(50);
    for (const [i, memory] of fleet.entries()) {
      expect((await configOf(memory))?.data).toEqual({ cluster: `c-${i}`, message: 'hi' });
      expect((await clientOf(memory).get(Widget, 'w', 'default'))?.status).toEqual({ cluster: `c-${i}` });
    }
    // The manager's own cluster serves Widgets too, but it is not in the fleet.
    expect(await clientOf(host!).get(kinds.ConfigMap, 'w-config', 'default')).toBeUndefined();

    // A child deleted behind the controller's back in c-7 brings back c-7's Widget only.
    reconciled.length = 0;
    await clientOf(fleet[7]!).delete(kinds.ConfigMap, { metadata: { name: 'w-config', namespace: 'default' } });
    await runUntilIdle();
    expect(reconciled.length).toBeGreaterThan(0);
    expect(new Set(reconciled)).toEqual(new Set(['c-7']));
    // Each cluster's queue is its own, named after the controller and the cluster.
    const adds = await mgr!.metrics.registry.getSingleMetricAsString('workqueue_adds_total');
    expect(adds).toMatch(/workqueue_adds_total\{name="widget\/c-7",controller="widget\/c-7"\} [1-9]/);
    expect(adds).toMatch(/workqueue_adds_total\{name="widget\/c-49",controller="widget\/c-49"\} [1-9]/);
    expect((await configOf(fleet[7]!))?.data).toEqual({ cluster: 'c-7', message: 'hi' });
  });

  test('engages and disengages clusters at run time: a removed cluster is left alone and its queued keys are dropped', async () => {
    const fleet = await fleetOf(3);
    const clusters = staticClusters({ 'c-0': fleet[0]!.cluster, 'c-1': fleet[1]!.cluster });
    const reconciled = await start(clusters);
    await runUntilIdle();
    expect(mgr!.clusters!.names()).toEqual(['c-0', 'c-1']);
    expect(await configOf(fleet[2]!)).toBeUndefined();

    clusters.add('late', fleet[2]!.cluster);
    await runUntilIdle();
    expect((await configOf(fleet[2]!))?.data).toEqual({ cluster: 'late', message: 'hi' });

    // c-0's Widget polls every minute; once c-0 is disengaged its queued requeue never runs.
    await clientOf(fleet[0]!).patch(Widget, { metadata: { name: 'w', namespace: 'default' } }, { spec: { poll: true } });
    await runUntilIdle();
    reconciled.length = 0;
    await runUntilIdle({ horizon: '61s' });
    expect(reconciled).toEqual(['c-0']);

    clusters.remove('c-0');
    expect(mgr!.clusters!.names()).toEqual(['c-1', 'late']);
    reconciled.length = 0;
    await clientOf(fleet[0]!).patch(Widget, { metadata: { name: 'w', namespace: 'default' } }, { spec: { message: 'unseen' } });
    await runUntilIdle({ horizon: '5m' });
    expect(reconciled).toEqual([]);
    expect((await configOf(fleet[0]!))?.data?.message).toBe('hi');
    // The others still work.
    await clientOf(fleet[1]!).patch(Widget, { metadata: { name: 'w', namespace: 'default' } }, { spec: { message: 'seen' } });
    await runUntilIdle();
    expect((await configOf(fleet[1]!))?.data).toEqual({ cluster: 'c-1', message: 'seen' });
  });

  test('a cluster that cannot be reached delays none of the others, and is reported not synced', async () => {
    const fleet = await fleetOf(49);
    // A real unreachable API server: a loopback port nobody listens on (connections refused).
    const unreachable = new KubeConfig();
    unreachable.loadFromOptions({
      clusters: [{ name: 'down', server: 'https://127.0.0.1:1', skipTLSVerify: true }],
      users: [{ name: 'u', token: 't' }],
      contexts: [{ name: 'down', cluster: 'down', user: 'u' }],
      currentContext: 'down',
    });
    const clusters = staticClusters({ down: unreachable, ...Object.fromEntries(names(49).map((name, i) => [name, fleet[i]!.cluster])) });
    await start(clusters);
    await runUntilIdle();
    for (const [i, memory] of fleet.entries()) expect((await configOf(memory))?.data?.cluster).toBe(`c-${i}`);
    expect(mgr!.clusters!.get('down')?.synced()).toBe(false);
    expect(mgr!.clusters!.get('c-0')?.synced()).toBe(true);
    const scraped = await mgr!.metrics.registry.getSingleMetricAsString('opgen_multicluster_cluster_synced');
    expect(scraped).toContain('opgen_multicluster_cluster_synced{cluster="down"} 0');
    expect(scraped).toContain('opgen_multicluster_cluster_synced{cluster="c-0"} 1');

    // Disengaged while its informers retry: gone from the fleet, the others go on.
    clusters.remove('down');
    expect(mgr!.clusters!.get('down')).toBeUndefined();
    await clientOf(fleet[3]!).patch(Widget, { metadata: { name: 'w', namespace: 'default' } }, { spec: { message: 'after' } });
    await runUntilIdle();
    expect((await configOf(fleet[3]!))?.data).toEqual({ cluster: 'c-3', message: 'after' });
  });
});

async function runUntilIdle(options?: Parameters<MemoryCluster['runUntilIdle']>[0]): Promise<void> {
  await host!.runUntilIdle(options);
}

describe('a reconcile running when its cluster is disengaged', () => {
  test('has its signal aborted, so a long wait in it ends', async () => {
    const [slow, quick] = await fleetOf(2);
    const clusters = staticClusters({ slow: slow!.cluster, quick: quick!.cluster });
    host = await createMemoryCluster({ clock });
    mgr = createManager({ cluster: host.cluster, clusters, handleSignals: false, logLevel: 'silent' });
    const ended: string[] = [];
    controller(mgr)
      .for(Widget)
      .reconcile(async (_widget, ctx) => {
        // Waits until told to stop: only a disengage (or the manager's stop) ends it.
        if (ctx.cluster.name === 'slow') await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
        ended.push(`${ctx.cluster.name}${ctx.signal.aborted ? ' (aborted)' : ''}`);
      });
    running = mgr.start();
    await mgr.elected();
    await vi.waitFor(() => expect(ended).toEqual(['quick']));
    clusters.remove('slow');
    await vi.waitFor(() => expect(ended).toEqual(['quick', 'slow (aborted)']));
  });
});

describe('what a manager with a cluster provider refuses', () => {
  test('an external source, which names no cluster; sharding across replicas', async () => {
    host = await createMemoryCluster({ clock });
    const fleetManager = createManager({ cluster: host.cluster, clusters: staticClusters(), handleSignals: false, logLevel: 'silent' });
    expect(() => controller(fleetManager).for(Widget).watches(channel()).reconcile(() => {})).toThrow(
      'controller: .watches() names no cluster, and a manager with a cluster provider reconciles many: use .reconcileAllEvery() or a watched kind',
    );
    expect(() => controller(fleetManager, { name: 'periodic' }).for(Widget).reconcileAllEvery('10m').reconcile(() => {})).not.toThrow();
    expect(() => createManager({ cluster: host!.cluster, clusters: staticClusters(), sharding: { ring: 'widgets' }, handleSignals: false })).toThrow(
      'createManager: sharding and clusters do not combine yet: give one of them',
    );
  });
});
