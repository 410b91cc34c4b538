// bench/controlplane: what the test control plane costs.
// Usage: node bench/controlplane/run.mjs [--runs 5] [--cold]
// Needs `npx tsc -b runtime` first (it uses the built @opgen/runtime/testing).
//   warm provision   hack/controlplane/build.sh with the cache present
//   start to ready   startControlPlane() until it resolves, with and without the controller manager
//   restart / stop   restartApiServer() and stop()
//   peak memory      VmHWM of each process after a small workload
//   --cold           also a cold build on an empty module, build and binary cache (minutes)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { AppsV1Api, CoreV1Api } from '@kubernetes/client-node';
import { startControlPlane } from '../../runtime/dist/testing/index.js';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' }, cold: { type: 'boolean', default: false } } });
const runs = Number(values.runs);
const buildScript = new URL('../../hack/controlplane/build.sh', import.meta.url).pathname;

const seconds = (ms) => (ms / 1000).toFixed(2);
const summary = (samples) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return `median ${seconds(sorted[Math.floor(sorted.length / 2)])} s (min ${seconds(sorted[0])}, max ${seconds(sorted.at(-1))}, n=${sorted.length})`;
};
const timed = async (action) => {
  const start = performance.now();
  const value = await action();
  return [performance.now() - start, value];
};

function build(env) {
  execFileSync('bash', [buildScript], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
}

if (values.cold) {
  const scratch = mkdtempSync(join(tmpdir(), 'opgen-bench-cold-'));
  const env = { OPGEN_CACHE_DIR: join(scratch, 'opgen'), GOCACHE: join(scratch, 'gocache'), GOMODCACHE: join(scratch, 'gomod') };
  const [ms] = await timed(() => build(env));
  console.log(`cold build (empty Go module, build and binary caches): ${seconds(ms)} s`);
  // The module cache is read-only by design; go itself knows how to remove it.
  execFileSync('go', ['clean', '-modcache'], { env: { ...process.env, ...env } });
  rmSync(scratch, { recursive: true, force: true });
}

const provision = [];
for (let i = 0; i < runs; i++) provision.push((await timed(() => build({})))[0]);
console.log(`warm provision (cache present): ${summary(provision)}`);

for (const controllerManager of [false, true]) {
  const ready = [];
  const restart = [];
  const stop = [];
  for (let i = 0; i < runs; i++) {
    const [startMs, cp] = await timed(() => startControlPlane({ controllerManager }));
    ready.push(startMs);
    restart.push((await timed(() => cp.restartApiServer()))[0]);
    stop.push((await timed(() => cp.stop()))[0]);
  }
  const label = controllerManager ? 'with controller manager' : 'etcd + API server';
  console.log(`start to ready, ${label}: ${summary(ready)}`);
  console.log(`restartApiServer, ${label}: ${summary(restart)}`);
  console.log(`stop, ${label}: ${summary(stop)}`);
}

const cp = await startControlPlane({ controllerManager: true });
try {
  const core = cp.kubeConfig.makeApiClient(CoreV1Api);
  const apps = cp.kubeConfig.makeApiClient(AppsV1Api);
  for (let i = 0; i < 100; i++) {
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: `cm-${i}` }, data: { i: String(i) } } });
  }
  const labels = { app: 'bench' };
  await apps.createNamespacedDeployment({
    namespace: 'default',
    body: {
      metadata: { name: 'bench' },
      spec: { replicas: 10, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'busybox' }] } } },
    },
  });
  // Let the controllers sync and act on what was created.
  await new Promise((resolve) => setTimeout(resolve, 15_000));
  const status = (pid, field) => Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'))?.[1]);
  let total = 0;
  for (const { name, pid } of cp.processes()) {
    const peak = status(pid, 'VmHWM');
    total += peak;
    console.log(`peak RSS ${name}: ${(peak / 1024).toFixed(0)} MiB (now ${(status(pid, 'VmRSS') / 1024).toFixed(0)} MiB)`);
  }
  console.log(`peak RSS all three: ${(total / 1024).toFixed(0)} MiB (100 ConfigMaps, a 10-replica Deployment, 15 s)`);
} finally {
  await cp.stop();
}
