// bench/testing: what a controller test costs on each tier of @opgen/runtime/testing. The same
// test (create a Gadget, reconcile: the scaffold's starter, which applies a ConfigMap holding
// spec.foo and sets a Ready condition; assert the ConfigMap and the condition) runs on the
// memory cluster and on the real control plane (etcd + kube-apiserver 1.36.3), in one run.
// Then the runtime's own overhead with the API server taken away: reconciles per second of a
// no-op reconcile over 10,000 objects on the memory cluster.
// Usage: node bench/testing/run.mjs [--tests 20] [--objects 10000] [--memory-only]
// Needs `npx tsc -b runtime` first (it uses the built runtime); the control plane tier needs
// its binaries (KUBEBUILDER_ASSETS or opgen's cache). Timings are wall-clock on a shared
// machine: the load average is printed beside them.
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { controller, createManager, kinds } from '../../runtime/dist/index.js';
import { defineKind } from '../../runtime/dist/api/index.js';
import { startTestCluster } from '../../runtime/dist/testing/index.js';

const { values } = parseArgs({
  options: { tests: { type: 'string', default: '20' }, objects: { type: 'string', default: '10000' }, 'memory-only': { type: 'boolean', default: false } },
});
const TESTS = Number(values.tests);
const OBJECTS = Number(values.objects);
const Gadget = defineKind({ group: 'bench.opgen.dev', version: 'v1', kind: 'Gadget', plural: 'gadgets', namespaced: true });
const crds = new URL('./gadget-crd.yaml', import.meta.url).pathname;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x) => `${x.toFixed(1)} ms`;
const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');

/** The scaffold's starter controller. */
function setup(mgr) {
  controller(mgr)
    .for(Gadget)
    .owns(kinds.ConfigMap)
    .reconcile(async (gadget, ctx) => {
      const { name, namespace } = gadget.metadata;
      const foo = gadget.spec?.foo ?? '';
      await ctx.apply(kinds.ConfigMap, { metadata: { name }, data: { foo } });
      const configMap = await ctx.client.get(kinds.ConfigMap, name, namespace);
      await ctx.status.setCondition(
        configMap?.data?.foo === foo
          ? { type: 'Ready', status: 'True', reason: 'ConfigMapInSync', message: `ConfigMap ${name} holds spec.foo` }
          : { type: 'Ready', status: 'False', reason: 'ConfigMapPending', message: `ConfigMap ${name} does not hold spec.foo yet` },
      );
    });
}

async function until(check, timeoutMs = 30_000) {
  const giveUp = performance.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (performance.now() > giveUp) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** One test: create, reconcile, assert the child and the status. */
async function oneTest(test, mgr, name) {
  const client = mgr.client;
  await client.create(Gadget, { metadata: { name, namespace: 'default' }, spec: { foo: name } });
  await test.runUntilIdle();
  const ready = async () => (await client.get(Gadget, name, 'default'))?.status?.conditions?.find((c) => c.type === 'Ready')?.status === 'True';
  // The memory tier is idle once done; on the control plane events may still be on the wire.
  if (test.tier === 'memory' && !(await ready())) throw new Error(`${name}: not Ready after runUntilIdle`);
  await until(ready);
  const configMap = await client.get(kinds.ConfigMap, name, 'default');
  if (configMap?.data?.foo !== name || configMap.metadata.ownerReferences?.[0]?.name !== name) throw new Error(`${name}: ConfigMap wrong: ${JSON.stringify(configMap)}`);
}

/** A test file: start the cluster and the manager, run `tests` tests, stop; times of the whole and of each test. */
async function file(tier, tests) {
  const began = performance.now();
  const test = await startTestCluster({ tier, crds });
  const mgr = createManager({ cluster: test.cluster, handleSignals: false, logLevel: 'warn' });
  setup(mgr);
  const running = mgr.start();
  await mgr.elected();
  const each = [];
  try {
    for (let i = 0; i < tests; i++) {
      const start = performance.now();
      await oneTest(test, mgr, `g-${i}`);
      each.push(performance.now() - start);
    }
  } finally {
    mgr.stop();
    await running;
    await test.stop();
  }
  return { whole: performance.now() - began, each };
}

/** Reconciles per second of a no-op reconcile over `n` objects on the memory cluster. */
async function overhead(n) {
  const test = await startTestCluster({ tier: 'memory', crds });
  try {
    const seeder = createManager({ cluster: test.cluster, handleSignals: false, logLevel: 'warn' });
    for (let i = 0; i < n; i++) await seeder.client.create(Gadget, { metadata: { name: `o-${i}`, namespace: 'default' }, spec: { foo: 'x' } });
    const mgr = createManager({ cluster: test.cluster, handleSignals: false, logLevel: 'warn' });
    let reconciles = 0;
    let first;
    let last;
    controller(mgr)
      .for(Gadget)
      .reconcile(() => {
        first ??= performance.now();
        last = performance.now();
        reconciles++;
      });
    const start = performance.now();
    const running = mgr.start();
    await test.runUntilIdle({ timeoutMs: 300_000 });
    const total = performance.now() - start;
    mgr.stop();
    await running;
    if (reconciles !== n) throw new Error(`expected ${n} reconciles, saw ${reconciles}`);
    return { perSecond: Math.round((n * 1000) / (last - first)), withList: Math.round((n * 1000) / total) };
  } finally {
    await test.stop();
  }
}

console.log(`bench/testing: ${TESTS} tests per tier; load average before: ${load()}`);
await file('memory', 3); // warm-up: module loading and JIT, not counted
const memory = await file('memory', TESTS);
const memoryTen = await file('memory', 10);
console.log(`memory cluster:  median ${ms(median(memory.each))} per test (${TESTS} tests); a 10-test file with setup ${ms(memoryTen.whole)}; load ${load()}`);
if (!values['memory-only']) {
  const real = await file('controlplane', 10);
  console.log(`control plane:   median ${ms(median(real.each))} per test (10 tests); the 10-test file with setup ${ms(real.whole)}; load ${load()}`);
  console.log(`ratio (control plane / memory): ${(median(real.each) / median(memory.each)).toFixed(1)}× per test, ${(real.whole / memoryTen.whole).toFixed(1)}× per 10-test file`);
}
const noop = await overhead(OBJECTS);
console.log(`runtime overhead: ${noop.perSecond} no-op reconciles/s over ${OBJECTS} objects on the memory cluster (${noop.withList}/s counting the start and initial list); load ${load()}`);
