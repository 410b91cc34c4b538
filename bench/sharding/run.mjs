// bench/sharding: one unsharded replica against three sharded replicas of the same Widget
// operator, each replica its own process, first in the label mode and then in the API
// server's (the control plane runs with the feature gate ShardedListAndWatch): time from
// start until every Widget carries the run's status mark, and each replica's heap (after a
// full GC) once converged, whole and above an idle replica's.
// Usage: node bench/sharding/run.mjs [--objects 30000]
// Needs `npx tsc -b runtime` first (the replicas use the built runtime).
import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import { loadavg } from 'node:os';
import { createClient } from '../../runtime/dist/index.js';
import { createCache } from '../../runtime/dist/cache/index.js';
import { defineKind } from '../../runtime/dist/api/index.js';
import { installCRDs, startControlPlane } from '../../runtime/dist/testing/index.js';

const { values } = parseArgs({ options: { objects: { type: 'string', default: '30000' } } });
const N = Number(values.objects);
const NS = 'default';
const Widget = defineKind({ group: 'test.opgen.dev', version: 'v1', kind: 'Widget', plural: 'widgets', namespaced: true });
const crd = new URL('../../runtime/test/fixtures/widget-crd.yaml', import.meta.url).pathname;
const replica = new URL('./replica.mjs', import.meta.url).pathname;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const mb = (bytes) => (bytes / 1048576).toFixed(1);

function start(args, run) {
  const child = spawn(process.execPath, ['--expose-gc', replica, '--metrics-bind-address=0', '--health-probe-bind-address=0', ...args], {
    env: { ...process.env, RUN: run, LOG_FORMAT: 'json' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const state = { child, last: undefined };
  let partial = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop();
    for (const line of lines) if (line.startsWith('{')) state.last = JSON.parse(line);
  });
  return state;
}

/**
 * Resolves once every Widget carries `run`'s mark, as the observer's watch sees them: counted
 * as the statuses change, not by listing 30,000 objects every second (load the replicas
 * would compete with).
 */
function converged(informer, run) {
  const marked = (w) => Number(w.status?.reconciledBy?.startsWith(`${run}/`) === true);
  let count = informer.list().filter(marked).length;
  return new Promise((resolve) => {
    const remove = informer.addHandler({
      update(old, w) {
        count += marked(w) - marked(old);
        if (count === N) {
          remove();
          resolve();
        }
      },
    });
  });
}

async function scenario(informer, cp, name, argsList) {
  const run = `${name}-${Date.now()}`;
  const done = converged(informer, run);
  const began = performance.now();
  const replicas = argsList.map((args) => start(['--kubeconfig', cp.kubeconfigPath, ...args], run));
  await done;
  const ms = performance.now() - began;
  await sleep(3000); // a settled heap, after the last status events
  const heaps = replicas.map((r) => r.last);
  for (const r of replicas) r.child.kill('SIGTERM');
  await Promise.all(replicas.map((r) => new Promise((resolve) => r.child.once('exit', resolve))));
  return { name, ms, heaps };
}

/**
 * The heap of a replica whose cache holds no Widget (it watches an empty namespace): the
 * runtime's own share, which a sharded replica carries as the unsharded one does.
 */
async function idleHeap(cp) {
  const r = start(['--kubeconfig', cp.kubeconfigPath, '--namespace=bench-idle'], 'idle');
  await sleep(10_000);
  r.child.kill('SIGTERM');
  await new Promise((resolve) => r.child.once('exit', resolve));
  return r.last?.heapUsed;
}

const cp = await startControlPlane({ extraArgs: { kubeApiServer: ['--feature-gates=ShardedListAndWatch=true'] } });
try {
  await installCRDs(cp.kubeConfig, crd);
  const client = createClient(cp.kubeConfig);
  const observer = createCache(cp.kubeConfig);
  const informer = observer.informerFor(Widget);
  const stopObserver = new AbortController();
  const created = performance.now();
  let next = 0;
  await Promise.all(Array.from({ length: 32 }, async () => {
    for (let i = next++; i < N; i = next++) await client.create(Widget, { metadata: { name: `b-${String(i).padStart(6, '0')}`, namespace: NS }, spec: { size: 1 } });
  }));
  console.log(`created ${N} Widgets in ${((performance.now() - created) / 1000).toFixed(1)} s; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  observer.start(stopObserver.signal);
  await observer.waitForSync(120_000);
  const idle = await idleHeap(cp);
  console.log(`a replica caching no Widget: ${idle ? `${mb(idle)} MB heap` : 'no sample'}`);
  const results = [
    await scenario(informer, cp, 'one replica', [[]]),
    await scenario(informer, cp, 'three shards, labels', ['r1', 'r2', 'r3'].map((id) => ['--shard-ring=widgets', `--shard-id=${id}`, '--shard-mode=labels'])),
    await scenario(informer, cp, 'three shards, server', ['s1', 's2', 's3'].map((id) => ['--shard-ring=uids', `--shard-id=${id}`, '--shard-mode=server'])),
  ];
  for (const { name, ms, heaps } of results) {
    const per = heaps.map((h) => `${h ? `${mb(h.heapUsed)} MB heap / ${mb(h.rss)} MB RSS, ${h.cached} cached` : 'no sample'}`).join('; ');
    console.log(`${name}: all ${N} reconciled in ${(ms / 1000).toFixed(1)} s (${Math.round((N * 1000) / ms)} objects/s); per replica: ${per}`);
  }
  // The issue's measure: a sharded replica's heap against the unsharded one's (a third is ideal).
  const single = results[0].heaps[0]?.heapUsed;
  for (const { name, heaps } of results.slice(1)) {
    const ratios = heaps.map((h) => (h && single ? (h.heapUsed / single).toFixed(2) : '?'));
    console.log(`${name}: heap per replica ÷ the single replica's = ${ratios.join(' / ')}`);
    // Less the runtime's own heap, which every replica carries whatever its share.
    const above = heaps.map((h) => (h && single && idle ? ((h.heapUsed - idle) / (single - idle)).toFixed(2) : '?'));
    console.log(`${name}: heap above an idle replica's ÷ the single replica's = ${above.join(' / ')}`);
  }
  console.log(`load average at the end ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  stopObserver.abort();
} finally {
  await cp.stop();
}
