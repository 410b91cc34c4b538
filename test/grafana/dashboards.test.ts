import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanUp, opgen, projectDir } from '../scaffold/run.js';

// What `opgen edit --plugins grafana` writes, read as Grafana reads it; and a user's mistake
// in grafana/custom-metrics/config.yaml ends in one located line, exit 1, nothing written.

const repo = fileURLToPath(new URL('../../', import.meta.url));

interface Target { expr: string; refId: string; datasource: { uid: string } }
interface PanelJson { id: number; type: string; title: string; datasource?: { uid: string }; targets?: Target[]; gridPos: { x: number; y: number; w: number; h: number } }
interface DashboardJson { uid: string; title: string; panels: PanelJson[]; templating: { list: { name: string; type: string }[] } }

let dir: string | undefined;
afterEach(async () => {
  if (dir) await cleanUp(dir);
  dir = undefined;
});

async function ok(...args: string[]): Promise<string> {
  const result = await opgen(dir!, ...args);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return result.stdout;
}

async function project(): Promise<string> {
  dir = await projectDir('shop-operator');
  await ok('init', '--domain', 'example.com', '--license', 'none', '--skip-install');
  return dir;
}

const read = async (path: string) => JSON.parse(await readFile(join(dir!, path), 'utf8')) as DashboardJson;

/** The metric families @opgen/runtime registers, read from its sources. */
async function runtimeFamilies(): Promise<string[]> {
  const sources = [
    // index.ts re-exports, and its example registers a metric of the user's.
    ...(await readdir(join(repo, 'runtime/src/metrics'))).filter((f) => f !== 'index.ts').map((f) => `runtime/src/metrics/${f}`),
    'runtime/src/webhook/metrics.ts',
    'runtime/src/sharding/metrics.ts',
  ];
  const names = new Set<string>();
  for (const source of sources) {
    for (const match of (await readFile(join(repo, source), 'utf8')).matchAll(/\bname: '([a-z_:]+)'/g)) names.add(match[1]!);
  }
  return [...names].sort();
}

describe('opgen edit --plugins grafana', () => {
  it('writes importable dashboards whose every query goes through the Prometheus datasource variable', async () => {
    await project();
    const out = await ok('edit', '--plugins', 'grafana');
    expect(out).toContain('CREATE grafana/controller-runtime-metrics.json');
    expect(out).toContain('CREATE grafana/controller-resources-metrics.json');
    expect(out).toContain('CREATE grafana/custom-metrics/config.yaml');
    expect(out).toContain('Next: import grafana/*.json in Grafana');
    // The config as written lists nothing yet, so there is no custom dashboard.
    expect(existsSync(join(dir!, 'grafana/custom-metrics/custom-metrics-dashboard.json'))).toBe(false);
    expect(await readFile(join(dir!, 'PROJECT'), 'utf8')).toContain('plugins:\n  grafana.opgen.dev/v1-alpha: {}\n');

    for (const file of ['grafana/controller-runtime-metrics.json', 'grafana/controller-resources-metrics.json']) {
      const dashboard = await read(file);
      expect(dashboard.templating.list.map((v) => `${v.name}:${v.type}`)).toEqual(['DS_PROMETHEUS:datasource', 'namespace:query', 'job:query']);
      expect(dashboard.uid.length).toBeLessThanOrEqual(40);
      const ids = dashboard.panels.map((p) => p.id);
      expect(new Set(ids).size, `${file}: panel ids`).toBe(ids.length);
      for (const panel of dashboard.panels.filter((p) => p.type !== 'row')) {
        expect(panel.datasource?.uid, `${file}: ${panel.title}`).toBe('${DS_PROMETHEUS}');
        expect(panel.targets!.length, `${file}: ${panel.title}`).toBeGreaterThan(0);
        expect(new Set(panel.targets!.map((t) => t.refId)).size).toBe(panel.targets!.length);
        for (const target of panel.targets!) {
          expect(target.datasource.uid).toBe('${DS_PROMETHEUS}');
          expect(target.expr, `${file}: ${panel.title}`).toContain('job=~"$job", namespace=~"$namespace"');
        }
        expect(panel.gridPos.x + panel.gridPos.w).toBeLessThanOrEqual(24);
      }
    }
  });

  it('puts every metric family of the runtime on the runtime dashboard, but those absent from a healthy operator by default', async () => {
    await project();
    await ok('edit', '--plugins', 'grafana');
    const exprs = (await read('grafana/controller-runtime-metrics.json')).panels.flatMap((p) => p.targets ?? []).map((t) => t.expr).join('\n');
    // Series of these appear only once a request was retried or an informer failed, or
    // (the rate limiter's waits) once --kube-api-qps is given, so a panel of them would show
    // no data on a healthy operator with default flags.
    const absentByDefault = ['opgen_informer_consecutive_failures', 'rest_client_request_retries_total', 'rest_client_rate_limiter_duration_seconds'];
    const missing = (await runtimeFamilies()).filter((name) => !absentByDefault.includes(name) && !exprs.includes(name));
    expect(missing).toEqual([]);
    const resources = (await read('grafana/controller-resources-metrics.json')).panels.flatMap((p) => p.targets ?? []).map((t) => t.expr).join('\n');
    for (const name of ['process_cpu_seconds_total', 'process_resident_memory_bytes', 'nodejs_heap_size_used_bytes', 'nodejs_eventloop_lag_p99_seconds']) {
      expect(resources).toContain(name);
    }
  });

  it('turns the metrics listed in config.yaml into a dashboard on the next run, and keeps the config', async () => {
    await project();
    await ok('edit', '--plugins', 'grafana');
    const config = join(dir!, 'grafana/custom-metrics/config.yaml');
    const listed = 'customMetrics:\n  - metric: shop_orders_total\n    type: COUNTER\n  - metric: shop_checkout_seconds\n    type: histogram\n    unit: s\n  - expr: sum(shop_carts)\n';
    await writeFile(config, listed);
    const out = await ok('edit', '--plugins', 'grafana');
    expect(out).toContain('CREATE grafana/custom-metrics/custom-metrics-dashboard.json');
    expect(await readFile(config, 'utf8')).toBe(listed);
    const panels = (await read('grafana/custom-metrics/custom-metrics-dashboard.json')).panels.filter((p) => p.type !== 'row');
    expect(panels.map((p) => [p.title, p.targets!.map((t) => t.expr)])).toEqual([
      ['shop_orders_total', ['sum by (instance) (rate(shop_orders_total{job=~"$job", namespace=~"$namespace"}[$__rate_interval]))']],
      [
        'shop_checkout_seconds',
        [0.5, 0.9, 0.99].map((q) => `histogram_quantile(${q}, sum by (instance, le) (rate(shop_checkout_seconds_bucket{job=~"$job", namespace=~"$namespace"}[$__rate_interval])))`),
      ],
      ['sum(shop_carts)', ['sum(shop_carts)']],
    ]);
    // Same input, same bytes.
    const again = await ok('edit', '--plugins', 'grafana');
    expect(again).not.toMatch(/^(CREATE|UPDATE) grafana\//m);
  });

  describe('refuses a config.yaml', () => {
    const cases: [string, string, RegExp][] = [
      ['with a misspelt key', 'customMetrics:\n  - metric: a_total\n    typ: counter\n', /^grafana\/custom-metrics\/config\.yaml:3:5: error: unknown key "typ" in a customMetrics entry \(known keys: metric, type, expr, unit\)$/],
      ['with a type Grafana cannot chart by default', 'customMetrics:\n  - metric: a\n    type: summary\n', /^grafana\/custom-metrics\/config\.yaml:3:11: error: unknown metric type "summary" \(one of counter, gauge, histogram\)$/],
      ['with an entry that has a metric but no type', 'customMetrics:\n  - metric: a_total\n', /^grafana\/custom-metrics\/config\.yaml:2:5: error: a customMetrics entry needs metric and type, or expr/],
      ['with a name Prometheus would not accept', 'customMetrics:\n  - metric: 9lives\n    type: gauge\n', /^grafana\/custom-metrics\/config\.yaml:2:13: error: "9lives" is not a Prometheus metric name$/],
      ['whose customMetrics is not a list', 'customMetrics:\n  metric: a_total\n', /^grafana\/custom-metrics\/config\.yaml:2:3: error: customMetrics must be a list$/],
      ['with another top-level key', 'customMetric:\n  - metric: a_total\n', /^grafana\/custom-metrics\/config\.yaml:1:1: error: unknown key "customMetric" \(the file has one key, customMetrics\)$/],
      ['that is not YAML', 'customMetrics: [\n', /^grafana\/custom-metrics\/config\.yaml:\d+:\d+: error: not valid YAML: /],
    ];
    for (const [what, text, message] of cases) {
      it(what, async () => {
        await project();
        await ok('edit', '--plugins', 'grafana');
        await writeFile(join(dir!, 'grafana/custom-metrics/config.yaml'), text);
        const before = await readFile(join(dir!, 'PROJECT'), 'utf8');
        const result = await opgen(dir!, 'edit', '--plugins', 'grafana');
        expect(result.code).toBe(1);
        expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
        expect(result.stderr.trimEnd()).toMatch(message);
        expect(existsSync(join(dir!, 'grafana/custom-metrics/custom-metrics-dashboard.json'))).toBe(false);
        expect(await readFile(join(dir!, 'PROJECT'), 'utf8')).toBe(before);
      });
    }
  });
});
