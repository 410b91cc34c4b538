// bench/runtime: how fast @opgen/runtime converges N custom objects, against the floor (a raw
// client doing the same status writes) and Go's controller-runtime doing the same reconcile,
// and what the cache holds per object.
// Usage: node --expose-gc bench/runtime/run.mjs [--objects 1000] [--workers 1,4] [--no-peer] [--memory-only]
//        node --expose-gc bench/runtime/run.mjs --large [--objects 100000] [--no-peer]
// --large: one operator process (4 workers) against N Widgets (default 100,000): start →
// caches synced → all reconciled, its peak RSS, and the heap its cache holds per Widget whole
// and metadata-only (each in a process of its own, bench/runtime/large-child.mjs);
// controller-runtime's time and peak RSS beside it.
// It also measures the heap per cached ConfigMap (the kind operators own most), whole and
// metadata-only (`byKind: [{ kind, metadataOnly: true }]`).
// Needs `npx tsc -b runtime` first (it uses the built runtime) and Go for the peer
// (bench/peers/controller-runtime, built by its build.sh into ~/.cache/opgen/tools once).
//
// Every scenario starts from N fresh Widgets without status. A reconcile reads the Widget
// (from the cache), and when status.observedGeneration differs from metadata.generation
// writes status {observedGeneration, phase} through the status subresource; the status
// write's own event causes one more, no-op, reconcile per object, as in Go. "opgen runtime" is
// the request form (the reconcile reads the Widget by name), "opgen object-first" the
// reconcile that is handed the Widget.
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { controller, createClient, createManager, kinds } from '../../runtime/dist/index.js';
import { defineKind } from '../../runtime/dist/api/index.js';
import { createCache } from '../../runtime/dist/cache/index.js';
import { installCRDs, startControlPlane } from '../../runtime/dist/testing/index.js';

const { values } = parseArgs({
  options: {
    objects: { type: 'string' },
    workers: { type: 'string', default: '1,4' },
    'no-peer': { type: 'boolean', default: false },
    'memory-only': { type: 'boolean', default: false },
    large: { type: 'boolean', default: false },
  },
});
const N = Number(values.objects ?? (values.large ? 100_000 : 1000));
const workerCounts = values.workers.split(',').map(Number);
const NS = 'default';
const Widget = defineKind({ group: 'bench.opgen.dev', version: 'v1', kind: 'Widget', plural: 'widgets', namespaced: true });
const crd = new URL('./widget-crd.yaml', import.meta.url).pathname;
const peerDir = new URL('../peers/controller-runtime/', import.meta.url).pathname;

const seconds = (ms) => (ms / 1000).toFixed(2);
const rate = (count, ms) => Math.round((count * 1000) / ms);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Runs `fn` over `items` with at most `lanes` in flight. */
async function inLanes(items, lanes, fn) {
  let next = 0;
  await Promise.all(Array.from({ length: lanes }, async () => {
    while (next < items.length) await fn(items[next++]);
  }));
}

const needsStatus = (w) => w.status?.observedGeneration !== w.metadata.generation;
const statusOf = (w) => ({ ...w, status: { observedGeneration: w.metadata.generation, phase: 'reconciled' } });

const cp = await startControlPlane();
const stopAll = [() => cp.stop()];
try {
  await installCRDs(cp.kubeConfig, crd);
  const client = createClient(cp.kubeConfig);

  async function freshWidgets() {
    await inLanes(await client.list(Widget, { namespace: NS }), 16, (w) => client.delete(Widget, w));
    while ((await client.list(Widget, { namespace: NS })).length > 0) await sleep(100);
    const names = Array.from({ length: N }, (_, i) => `w-${String(i).padStart(6, '0')}`);
    await inLanes(names, 16, (name) => client.create(Widget, { metadata: { name, namespace: NS }, spec: { size: 1 } }));
  }

  /** Runs bench/runtime/large-child.mjs in `mode`; resolves with the JSON line it printed. */
  async function child(mode) {
    const script = new URL('./large-child.mjs', import.meta.url).pathname;
    const proc = spawn(process.execPath, ['--expose-gc', script, '--kubeconfig', cp.kubeconfigPath, '--objects', String(N), '--mode', mode, '--workers', '4'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    proc.stdout.setEncoding('utf8');
    proc.stdout.on('data', (text) => (out += text));
    const code = await new Promise((r) => proc.once('exit', r));
    if (code !== 0) throw new Error(`large-child ${mode} exited ${code}`);
    return JSON.parse(out.trim().split('\n').at(-1));
  }

  /** --large: one process against N Widgets; see the header. */
  async function large(peerBinary) {
    const created = performance.now();
    await freshWidgets();
    console.log(`bench/runtime --large: ${N} Widgets created in ${seconds(performance.now() - created)} s (shared, noisy machine; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')})`);
    const whole = await child('cache');
    console.log(`opgen cache, whole Widgets:   synced in ${seconds(whole.syncedMs)} s, ${whole.heapPerObject} bytes of heap per cached Widget, peak RSS ${whole.peakRssMb} MB`);
    const meta = await child('metadata');
    console.log(`opgen cache, metadata-only:   synced in ${seconds(meta.syncedMs)} s, ${meta.heapPerObject} bytes of heap per cached Widget, peak RSS ${meta.peakRssMb} MB`);
    const run = await child('reconcile');
    console.log(`opgen runtime, 4 workers:     caches synced ${seconds(run.syncedMs)} s after start, all ${N} reconciled after ${seconds(run.reconciledMs)} s (${rate(N, run.reconciledMs)} objects/s), peak RSS ${run.peakRssMb} MB`);
    if (peerBinary) {
      // The peer starts from Widgets without status too: the opgen run's statuses are removed.
      await inLanes(await client.list(Widget, { namespace: NS }), 16, (w) => client.patchStatus(Widget, w, { status: null }));
      const p = await peer(4, true);
      console.log(`controller-runtime, 4 workers: all ${N} reconciled after ${seconds(p.ms)} s (${rate(N, p.ms)} objects/s; process start and cache sync included), peak RSS ${p.peakRssMb} MB, ${p.errors} reconcile errors`);
    }
    console.log(`load average after: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  }

  /** `objectFirst`: the reconcile gets the object (`.reconcile((w, ctx) => …)`); else it reads it by request, as 0.1.0's form. */
  async function opgen(workers, objectFirst = false) {
    await freshWidgets();
    const mgr = createManager({ kubeConfig: cp.kubeConfig, handleSignals: false, logLevel: 'warn' });
    const written = new Set();
    let reconciles = 0;
    let firstAt;
    let done;
    const converged = new Promise((resolve) => (done = resolve));
    const write = async (w, ctx) => {
      await ctx.client.updateStatus(Widget, statusOf(w));
      written.add(w.metadata.name);
      if (written.size === N) done();
    };
    const builder = controller(mgr, { maxConcurrentReconciles: workers }).for(Widget);
    if (objectFirst) {
      builder.reconcile(async (w, ctx) => {
        reconciles++;
        firstAt ??= performance.now();
        if (needsStatus(w)) await write(w, ctx);
      });
    } else {
      builder.reconcile(async (req, ctx) => {
        reconciles++;
        firstAt ??= performance.now();
        const w = await ctx.client.get(Widget, req.name, req.namespace);
        if (w && needsStatus(w)) await write(w, ctx);
      });
    }
    const start = performance.now();
    const running = mgr.start();
    await converged;
    const ms = performance.now() - start;
    await sleep(500); // let the no-op reconciles of the status events drain before counting
    const total = reconciles;
    mgr.stop();
    await running;
    return { ms, fromFirst: ms - (firstAt - start), reconciles: total };
  }

  async function raw(workers) {
    await freshWidgets();
    const start = performance.now();
    const widgets = await client.list(Widget, { namespace: NS });
    await inLanes(widgets, workers, async (w) => {
      if (needsStatus(w)) await client.updateStatus(Widget, statusOf(w));
    });
    return { ms: performance.now() - start };
  }

  // Built once per version of its sources into ~/.cache/opgen/tools (see build.sh).
  const peerBinary = values['no-peer'] || values['memory-only'] ? undefined : execFileSync('bash', [join(peerDir, 'build.sh')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();

  /** `keep`: reconcile the Widgets as they are (the --large mode has cleared their status). */
  async function peer(workers, keep = false) {
    if (!keep) await freshWidgets();
    // Watched, not polled: lists of N objects would slow the API server the peer talks to.
    const observer = createCache(cp.kubeConfig);
    const informer = observer.informerFor(Widget);
    const stopObserver = new AbortController();
    observer.start(stopObserver.signal);
    await observer.waitForSync(60_000);
    let done;
    const converged = new Promise((resolve) => (done = resolve));
    // Counted as the statuses change: scanning every Widget on each event would cost this
    // process O(N²) at 100,000, CPU taken from the peer and its API server.
    let pending = informer.list().filter(needsStatus).length;
    informer.addHandler({
      update: (old, w) => {
        pending += Number(needsStatus(w)) - Number(needsStatus(old));
        if (pending === 0) done();
      },
    });
    const start = performance.now();
    const child = spawn(peerBinary, [`--workers=${workers}`, `--kubeconfig=${cp.kubeconfigPath}`], { stdio: ['ignore', 'ignore', 'pipe'] });
    let errors = 0;
    let firstError;
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text) => {
      for (const line of text.split('\n').filter((l) => l.includes('Reconciler error'))) {
        errors++;
        firstError ??= line;
      }
    });
    try {
      await converged;
      const ms = performance.now() - start;
      // The child's high-water mark of resident memory, read before it is stopped.
      const peakRssMb = Math.round(Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024);
      return { ms, errors, firstError, peakRssMb };
    } finally {
      stopObserver.abort();
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
  }

  /** Heap per cached object of `kind` in `namespace` (N of them present), cached with `byKind` options: median of three rounds. */
  async function heapPerObject(kind, namespace, options = {}) {
    const heap = async () => {
      await sleep(200);
      for (let i = 0; i < 4; i++) globalThis.gc();
      return process.memoryUsage().heapUsed;
    };
    const rounds = [];
    for (let round = 0; round < 3; round++) {
      const stop = new AbortController();
      let cache = createCache(cp.kubeConfig, { namespace, byKind: [{ kind, ...options }] });
      cache.informerFor(kind);
      cache.start(stop.signal);
      await cache.waitForSync(120_000);
      const held = await heap();
      if (cache.informerFor(kind).list().length !== N) throw new Error(`cache did not hold every ${kind.kind}`);
      stop.abort();
      cache = undefined;
      await sleep(1000);
      rounds.push((held - (await heap())) / N);
    }
    rounds.sort((x, y) => x - y);
    return Math.round(rounds[1]);
  }

  /** Heap per owned ConfigMap (a small one, as an operator's), cached whole and metadata-only. */
  async function configMapHeap() {
    if (typeof globalThis.gc !== 'function') return 'configmap heap: run node with --expose-gc to measure it';
    const ns = 'bench-configmaps';
    await client.create(kinds.Namespace, { metadata: { name: ns } }).catch(() => undefined);
    const names = Array.from({ length: N }, (_, i) => `cm-${String(i).padStart(5, '0')}`);
    const owner = { apiVersion: 'bench.opgen.dev/v1', kind: 'Widget', name: 'owner', uid: '00000000-0000-0000-0000-000000000001', controller: true, blockOwnerDeletion: true };
    await inLanes(names, 16, (name) =>
      client.create(kinds.ConfigMap, { metadata: { name, namespace: ns, labels: { 'app.kubernetes.io/managed-by': 'bench' }, ownerReferences: [owner] }, data: { size: '1', color: 'blue' } }),
    );
    const whole = await heapPerObject(kinds.ConfigMap, ns);
    const metadataOnly = await heapPerObject(kinds.ConfigMap, ns, { metadataOnly: true });
    await client.delete(kinds.Namespace, { metadata: { name: ns } });
    return `configmap heap: ${whole} bytes per cached ConfigMap, ${metadataOnly} bytes metadata-only (median of three rounds; ${N} objects, managedFields stripped)`;
  }

  /**
   * Heap the cache holds per object: the heap with a synced cache of N Widgets minus the
   * heap once that cache is stopped and dropped (same warmed-up code in both readings),
   * median of three rounds.
   */
  async function cacheHeap() {
    if (typeof globalThis.gc !== 'function') return 'cache heap: run node with --expose-gc to measure it';
    await freshWidgets();
    const heap = async () => {
      await sleep(200);
      for (let i = 0; i < 4; i++) globalThis.gc();
      return process.memoryUsage().heapUsed;
    };
    const sample = JSON.stringify((await client.list(Widget, { namespace: NS }))[0]);
    const rounds = [];
    for (let round = 0; round < 3; round++) {
      const stop = new AbortController();
      let cache = createCache(cp.kubeConfig);
      cache.informerFor(Widget);
      cache.start(stop.signal);
      await cache.waitForSync(60_000);
      const held = await heap();
      if (cache.informerFor(Widget).list().length !== N) throw new Error('cache did not hold every Widget');
      stop.abort();
      cache = undefined;
      await sleep(1000);
      rounds.push((held - (await heap())) / N);
    }
    rounds.sort((x, y) => x - y);
    return `cache heap: ${Math.round(rounds[1])} bytes per cached Widget (median of ${rounds.map(Math.round).join(', ')}; ${N} objects; one is ${sample.length} bytes of JSON as the API server sends it)`;
  }

  /** The default mode: convergence of N Widgets per worker count beside the floor and the peer, and the cache's heap. */
  async function sideBySide() {
    console.log(`bench/runtime: ${N} Widgets, status write per object, etcd + kube-apiserver on loopback (shared, noisy machine; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')})`);
    console.log(await cacheHeap());
    console.log(await configMapHeap());
    for (const workers of values['memory-only'] ? [] : workerCounts) {
      const o = await opgen(workers);
      console.log(
        `workers=${workers}  opgen runtime       converged in ${seconds(o.ms)} s (${rate(N, o.ms)} objects/s; manager start and cache sync included, ${seconds(o.fromFirst)} s from the first reconcile), ` +
          `${o.reconciles} reconciles (${rate(o.reconciles, o.ms)} reconciles/s)`,
      );
      const f = await opgen(workers, true);
      console.log(
        `workers=${workers}  opgen object-first  converged in ${seconds(f.ms)} s (${rate(N, f.ms)} objects/s; manager start and cache sync included, ${seconds(f.fromFirst)} s from the first reconcile), ` +
          `${f.reconciles} reconciles (${rate(f.reconciles, f.ms)} reconciles/s)`,
      );
      const r = await raw(workers);
      console.log(`workers=${workers}  raw client floor    ${seconds(r.ms)} s (${rate(N, r.ms)} writes/s)`);
      if (peerBinary) {
        const p = await peer(workers);
        console.log(`workers=${workers}  controller-runtime  converged in ${seconds(p.ms)} s (${rate(N, p.ms)} objects/s; process start and cache sync included), ${p.errors} reconcile errors`);
        if (p.firstError) console.log(`  first: ${p.firstError.slice(0, 300)}`);
      }
    }
  }

  if (values.large) await large(peerBinary);
  else await sideBySide();
} finally {
  for (const stop of stopAll.reverse()) await stop();
}
