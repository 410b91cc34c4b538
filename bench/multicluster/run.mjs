// bench/multicluster: one manager reconciling Widgets across a fleet of clusters through a
// cluster provider. Each reconcile applies a ConfigMap for its Widget and writes the cluster's
// name into the Widget's status, as the multi-cluster test's controller does.
//
//   memory (default): --clusters 50 memory clusters × --objects 1,000 Widgets each, in one
//     process on one fake clock: time from start to every Widget of every cluster converged,
//     and the heap the manager holds per cluster (caches, queues, informers) after GC.
//   --controlplanes: the same reconcile over 2 real control planes (--objects Widgets each),
//     start to converged, wall time.
//
// Usage: npm run build && node --expose-gc bench/multicluster/run.mjs [--clusters 50] [--objects 1000] [--controlplanes]
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { controller, createClient, createManager, kinds } from '../../runtime/dist/index.js';
import { defineKind } from '../../runtime/dist/api/index.js';
import { staticClusters } from '../../runtime/dist/multicluster/index.js';
import { createFakeClock, createMemoryCluster, installCRDs, readCRDs, startControlPlane } from '../../runtime/dist/testing/index.js';

const { values } = parseArgs({ options: { clusters: { type: 'string', default: '50' }, objects: { type: 'string', default: '1000' }, controlplanes: { type: 'boolean', default: false } } });
const CLUSTERS = Number(values.clusters);
const OBJECTS = Number(values.objects);
const crdPath = new URL('../runtime/widget-crd.yaml', import.meta.url).pathname;
const Widget = defineKind({ group: 'bench.opgen.dev', version: 'v1', kind: 'Widget', plural: 'widgets', namespaced: true });
const widgets = (count) => Array.from({ length: count }, (_, i) => ({ apiVersion: 'bench.opgen.dev/v1', kind: 'Widget', metadata: { name: `w-${i}`, namespace: 'default' }, spec: { size: i } }));
if (!global.gc) throw new Error('run with node --expose-gc, for the heap figures');
const heapMB = () => {
  global.gc();
  return process.memoryUsage().heapUsed / 1e6;
};

/** A manager (its own cluster given by `home`: `{ cluster }` or `{ kubeConfig }`) reconciling the fleet's Widgets. */
function startManager(home, clusters) {
  const mgr = createManager({ ...home, clusters, handleSignals: false, logLevel: 'silent' });
  controller(mgr)
    .for(Widget)
    .owns(kinds.ConfigMap)
    .reconcile(async (widget, ctx) => {
      await ctx.apply(kinds.ConfigMap, { metadata: { name: `${widget.metadata.name}-config` }, data: { cluster: ctx.cluster.name } });
      await ctx.status.apply({ phase: ctx.cluster.name });
    });
  return { mgr, running: mgr.start() };
}

/** Widgets of `cluster` not yet converged (status naming their cluster). */
async function unconverged(cluster, name) {
  const listed = await createClient(cluster).list(Widget, { namespace: 'default' });
  return listed.filter((w) => w.status?.phase !== name).length + (OBJECTS - listed.length);
}

console.log(`bench/multicluster, node ${process.version}, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);

{
  const clock = createFakeClock();
  const crds = readCRDs(crdPath);
  let started = performance.now();
  const fleet = [];
  for (let i = 0; i < CLUSTERS; i++) fleet.push(await createMemoryCluster({ clock, crds, objects: widgets(OBJECTS), historySize: 100 }));
  const host = await createMemoryCluster({ clock });
  console.log(`memory: ${CLUSTERS} clusters × ${OBJECTS} Widgets created in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const before = heapMB();
  started = performance.now();
  const { mgr, running } = startManager({ cluster: host.cluster }, staticClusters(Object.fromEntries(fleet.map((m, i) => [`c-${i}`, m.cluster]))));
  await mgr.elected();
  for (;;) {
    // The fleet's first pass lasts minutes: wait in rounds, saying how far it got.
    const idle = await host.runUntilIdle({ timeoutMs: 30_000 }).then(() => true, (error) => (/not idle/.test(error.message) ? false : Promise.reject(error)));
    let left = 0;
    for (const [i, m] of fleet.entries()) left += await unconverged(m.cluster, `c-${i}`);
    if (left === 0) break;
    if (!idle) console.log(`memory: ${CLUSTERS * OBJECTS - left} converged after ${((performance.now() - started) / 1000).toFixed(0)} s`);
  }
  const convergedS = (performance.now() - started) / 1000;
  const after = heapMB();
  console.log(`memory: ${CLUSTERS * OBJECTS} Widgets converged in ${convergedS.toFixed(1)} s (${((CLUSTERS * OBJECTS) / convergedS).toFixed(0)} reconciles/s, fake clock, servers in the same process)`);
  console.log(`memory: manager heap ${(after - before).toFixed(1)} MB for ${CLUSTERS} clusters: ${((after - before) / CLUSTERS).toFixed(2)} MB per cluster of ${OBJECTS} Widgets and ${OBJECTS} ConfigMaps cached`);
  mgr.stop();
  await running;
  for (const m of [host, ...fleet]) m.close();
}

if (values.controlplanes) {
  const planes = [];
  try {
    for (let i = 0; i < 2; i++) planes.push(await startControlPlane());
    for (const cp of planes) {
      await installCRDs(cp.kubeConfig, crdPath);
      const client = createClient(cp.kubeConfig);
      await Promise.all(widgets(OBJECTS).map((w) => client.create(Widget, w)));
    }
    const started = performance.now();
    const { mgr, running } = startManager({ kubeConfig: planes[0].kubeConfig }, staticClusters({ a: planes[0].kubeConfig, b: planes[1].kubeConfig }));
    await mgr.elected();
    for (;;) {
      const left = (await unconverged(planes[0].kubeConfig, 'a')) + (await unconverged(planes[1].kubeConfig, 'b'));
      if (left === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    console.log(`control planes: 2 × ${OBJECTS} Widgets converged in ${((performance.now() - started) / 1000).toFixed(1)} s (real API servers, real time)`);
    mgr.stop();
    await running;
  } finally {
    for (const cp of planes) await cp.stop();
  }
}
