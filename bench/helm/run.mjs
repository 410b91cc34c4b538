// bench/helm: what a chart-backed reconcile costs.
// Usage: node bench/helm/run.mjs [--crs 50] [--renders 20]
// Needs `npx tsc -b runtime` first and helm (hack/helm/build.sh; HELM overrides).
//   render           renderChart() of examples/charts/static-site: one `helm template` process
//   install          --crs StaticSites created at once, until every one reports Deployed
//   upgrade          a spec change on each, until every ConfigMap shows it
// The operator runs in this process (watchCharts) against a real API server and etcd.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createClient, createManager, kinds } from '../../runtime/dist/index.js';
import { defineKind } from '../../runtime/dist/api/index.js';
import { renderChart, watchCharts } from '../../runtime/dist/helm/index.js';
import { installCRDs, startControlPlane } from '../../runtime/dist/testing/index.js';

const { values } = parseArgs({ options: { crs: { type: 'string', default: '50' }, renders: { type: 'string', default: '20' } } });
const crs = Number(values.crs);
const helm = process.env.HELM ?? execFileSync('bash', [fileURLToPath(new URL('../../hack/helm/build.sh', import.meta.url))], { encoding: 'utf8' }).trim();
const chart = fileURLToPath(new URL('../../examples/charts/static-site', import.meta.url));
const crd = fileURLToPath(new URL('../../examples/static-site/config/crd/bases/web.example.com_staticsites.yaml', import.meta.url));
const StaticSite = defineKind({ group: 'web.example.com', version: 'v1alpha1', kind: 'StaticSite', plural: 'staticsites', namespaced: true });

const renders = [];
for (let i = 0; i < Number(values.renders); i++) {
  const start = performance.now();
  await renderChart({ helm, chart, release: `r${i}`, namespace: 'default', values: { content: `page ${i}` } });
  renders.push(performance.now() - start);
}
renders.sort((a, b) => a - b);
console.log(`render      median ${renders[Math.floor(renders.length / 2)].toFixed(0)} ms (min ${renders[0].toFixed(0)}, max ${renders.at(-1).toFixed(0)}, n=${renders.length})`);

const cp = await startControlPlane();
try {
  await installCRDs(cp.kubeConfig, crd);
  const client = createClient(cp.kubeConfig);
  const mgr = createManager({ kubeConfig: cp.kubeConfig, handleSignals: false, logLevel: 'silent', healthProbeBindAddress: '0', metricsBindAddress: '0' });
  await watchCharts(mgr, { helm, watches: [{ group: 'web.example.com', version: 'v1alpha1', kind: 'StaticSite', chart, watchDependentResources: true, overrideValues: {}, reconcilePeriodMs: 0, maxConcurrentReconciles: 2 }] });
  const running = mgr.start();
  await mgr.elected();

  const names = Array.from({ length: crs }, (_, i) => `site-${i}`);
  const until = async (done) => {
    for (;;) {
      if (await done()) return;
      await new Promise((r) => setTimeout(r, 200));
    }
  };
  let start = performance.now();
  await Promise.all(names.map((name) => client.create(StaticSite, { metadata: { name, namespace: 'default' }, spec: { content: 'first' } })));
  await until(async () => (await client.list(StaticSite, { namespace: 'default' })).filter((s) => s.status?.conditions?.some((c) => c.type === 'Deployed' && c.status === 'True')).length === crs);
  const install = performance.now() - start;
  console.log(`install     ${crs} CRs in ${(install / 1000).toFixed(1)} s (${(install / crs).toFixed(0)} ms per CR, 2 workers)`);

  start = performance.now();
  await Promise.all(names.map((name) => client.patch(StaticSite, { metadata: { name, namespace: 'default' } }, { spec: { content: 'second' } })));
  await until(async () => (await client.list(kinds.ConfigMap, { namespace: 'default' })).filter((c) => c.data?.['index.html'] === 'second').length === crs);
  const upgrade = performance.now() - start;
  console.log(`upgrade     ${crs} CRs in ${(upgrade / 1000).toFixed(1)} s (${(upgrade / crs).toFixed(0)} ms per CR, 2 workers)`);
  mgr.stop();
  await running;
} finally {
  await cp.stop();
}
