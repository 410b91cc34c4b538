// One opgen operator process of bench/runtime's --large mode, so that its peak RSS is its own.
// Usage: node --expose-gc bench/runtime/large-child.mjs --kubeconfig FILE --objects N
//          --mode reconcile|cache|metadata [--workers 4]
// reconcile: a manager reconciling every Widget (status write); prints when its caches synced
//   and when all N were written, and its peak RSS.
// cache / metadata: a cache of the Widgets only (whole / metadata-only); prints the heap it
//   holds per object once synced (heap after sync minus heap before start, after GC).
// Prints one JSON line on stdout.
import { parseArgs } from 'node:util';
import { controller, createManager } from '../../runtime/dist/index.js';
import { defineKind } from '../../runtime/dist/api/index.js';
import { loadKubeConfig } from '../../runtime/dist/manager/index.js';

const { values } = parseArgs({ options: { kubeconfig: { type: 'string' }, objects: { type: 'string' }, mode: { type: 'string' }, workers: { type: 'string', default: '4' } } });
const N = Number(values.objects);
const Widget = defineKind({ group: 'bench.opgen.dev', version: 'v1', kind: 'Widget', plural: 'widgets', namespaced: true });

const heap = async () => {
  await new Promise((r) => setTimeout(r, 200));
  for (let i = 0; i < 4; i++) globalThis.gc();
  return process.memoryUsage().heapUsed;
};
const peakRssMb = () => Math.round(process.resourceUsage().maxRSS / 1024);

const mgr = createManager({
  kubeConfig: loadKubeConfig(values.kubeconfig),
  handleSignals: false,
  logLevel: 'warn',
  ...(values.mode === 'metadata' ? { cacheByKind: [{ kind: Widget, metadataOnly: true }] } : {}),
});

if (values.mode === 'reconcile') {
  const written = new Set();
  let done;
  const converged = new Promise((resolve) => (done = resolve));
  controller(mgr, { maxConcurrentReconciles: Number(values.workers) })
    .for(Widget)
    .reconcile(async (w, ctx) => {
      if (w.status?.observedGeneration === w.metadata.generation) return;
      await ctx.client.updateStatus(Widget, { ...w, status: { observedGeneration: w.metadata.generation, phase: 'reconciled' } });
      written.add(w.metadata.name);
      if (written.size === N) done();
    });
  const start = performance.now();
  const running = mgr.start();
  await mgr.elected();
  const syncedMs = performance.now() - start;
  await converged;
  const reconciledMs = performance.now() - start;
  console.log(JSON.stringify({ syncedMs, reconciledMs, peakRssMb: peakRssMb() }));
  mgr.stop();
  await running;
} else {
  const informer = mgr.cache.informerFor(Widget);
  const before = await heap();
  const start = performance.now();
  const running = mgr.start();
  await mgr.elected();
  const syncedMs = performance.now() - start;
  if (informer.list().length !== N) throw new Error(`the cache holds ${informer.list().length} Widgets, not ${N}`);
  const held = await heap();
  console.log(JSON.stringify({ syncedMs, heapPerObject: Math.round((held - before) / N), peakRssMb: peakRssMb() }));
  mgr.stop();
  await running;
}
