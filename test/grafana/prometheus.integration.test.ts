import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { kinds } from '@opgen/runtime';
import { validatePath } from '@opgen/runtime/webhook';
import { kubectlFor, startControlPlane, startOperator, type ControlPlane, type Kubectl, type Operator } from '@opgen/runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanUp, opgen, projectDir } from '../scaffold/run.js';
import { startPrometheus, type Prometheus } from './prometheus.js';

// Every query of every panel the dashboards of `opgen edit --plugins grafana` hold, run
// through a real Prometheus (built from Go modules) that scrapes a real operator process
// (fixtures/operator.ts: a controller, a webhook the API server calls, metrics of its own)
// running against a real control plane, must return series once the operator has worked.

const repo = fileURLToPath(new URL('../../', import.meta.url));
const REGISTER = 'runtime/test/fixtures/ts-register.mjs';
const JOB = 'shop-operator-metrics';
const NAMESPACE = 'shop-system';
// What Grafana puts for the dashboards' variables with this job and namespace picked, and
// for $__rate_interval with a 1 s scrape interval.
const variables: Record<string, string> = { job: JOB, namespace: NAMESPACE, __rate_interval: '30s' };

const CUSTOM_METRICS = `customMetrics:
  - metric: grafana_test_configmaps_reconciled_total
    type: counter
  - metric: grafana_test_configmap_bytes
    type: histogram
    unit: bytes
  - metric: grafana_test_configmap_keys
    type: gauge
  - expr: max(grafana_test_configmap_keys{job=~"$job"})
`;

interface Target { expr: string }
interface Dashboard { title: string; panels: { title: string; targets?: Target[] }[] }

let project: string;
let controlPlane: ControlPlane | undefined;
let kubectl: Kubectl;
let operator: Operator | undefined;
let sharded: Operator | undefined;
let prometheus: Prometheus | undefined;
const dashboards: Dashboard[] = [];

const substitute = (expr: string) => expr.replace(/\$(\w+)/g, (whole, name: string) => variables[name] ?? whole);

async function ok(...args: string[]): Promise<void> {
  const result = await opgen(project, ...args);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
}

/** Drives the operator: reconciles that succeed and fail, webhook calls allowed and denied. */
async function drive(): Promise<void> {
  const configMap = (name: string, labels: Record<string, string> = {}) => ({
    input: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default', labels: { 'grafana-test': 'true', ...labels } }, data: { greeting: `hello from ${name}` } }),
  });
  for (const name of ['one', 'two', 'three']) expect((await kubectl.run(['create', '-f', '-'], configMap(name))).code).toBe(0);
  expect((await kubectl.run(['create', '-f', '-'], configMap('broken', { 'grafana-test/fail': 'true' }))).code).toBe(0);
  const denied = await kubectl.run(['create', '-f', '-'], configMap('refused', { 'grafana-test/deny': 'true' }));
  expect(denied.code).toBe(1);
  expect(denied.stderr).toContain('denied by its label');
  await kubectl(['label', 'configmap', 'one', 'touched=yes']);
}

beforeAll(async () => {
  project = await projectDir('shop-operator');
  await ok('init', '--domain', 'example.com', '--license', 'none', '--skip-install');
  await ok('edit', '--plugins', 'grafana');
  await writeFile(join(project, 'grafana/custom-metrics/config.yaml'), CUSTOM_METRICS);
  await ok('edit', '--plugins', 'grafana');
  for (const file of ['controller-runtime-metrics.json', 'controller-resources-metrics.json', 'custom-metrics/custom-metrics-dashboard.json']) {
    dashboards.push(JSON.parse(await readFile(join(project, 'grafana', file), 'utf8')) as Dashboard);
  }

  controlPlane = await startControlPlane();
  kubectl = kubectlFor(controlPlane);
  const caFile = join(project, 'webhook-ca.pem');
  operator = await startOperator({
    dir: repo,
    name: 'grafana-test-operator',
    script: 'test/grafana/fixtures/operator.ts',
    execArgv: ['--import', `./${REGISTER}`],
    kubeconfigPath: controlPlane.kubeconfigPath,
    ports: 'free',
    args: ['--metrics-secure=false', '--leader-elect'],
    env: { WEBHOOK_CA_FILE: caFile },
  });
  const serving = await operator.waitForLog('Serving webhooks', 60_000);
  const port = /:(\d+)$/.exec(String(serving.address))?.[1];
  expect(port, `webhook address ${String(serving.address)}`).toBeDefined();
  await operator.waitForLog('acquired the lease: leading', 60_000);
  // A second replica on a shard ring, so that the Sharding row has series too.
  sharded = await startOperator({
    dir: repo,
    name: 'grafana-test-shard',
    script: 'test/grafana/fixtures/operator.ts',
    execArgv: ['--import', `./${REGISTER}`],
    kubeconfigPath: controlPlane.kubeconfigPath,
    ports: 'free',
    args: ['--metrics-secure=false', '--shard-ring=grafana-test', '--shard-id=shard-a'],
    env: { WEBHOOK_CA_FILE: join(project, 'webhook-ca-shard.pem') },
  });
  await sharded.waitForLog('Reconciling this shard', 60_000);
  await kubectl.apply({
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    metadata: { name: 'grafana-test' },
    webhooks: [
      {
        name: 'vconfigmap.grafana-test.opgen.dev',
        admissionReviewVersions: ['v1'],
        sideEffects: 'None',
        failurePolicy: 'Fail',
        objectSelector: { matchLabels: { 'grafana-test': 'true' } },
        rules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }],
        clientConfig: { url: `https://127.0.0.1:${port}${validatePath(kinds.ConfigMap)}`, caBundle: Buffer.from(await readFile(caFile)).toString('base64') },
      },
    ],
  });
  prometheus = await startPrometheus(JOB, [`127.0.0.1:${operator.ports!.metrics}`, `127.0.0.1:${sharded.ports!.metrics}`], { namespace: NAMESPACE });
  await drive();
}, 300_000);

afterAll(async () => {
  await prometheus?.stop();
  await operator?.stop();
  await sharded?.stop();
  await controlPlane?.stop();
  if (project) await cleanUp(project);
});

describe('the Grafana dashboards against a real Prometheus scraping a real operator', () => {
  it('lists the operator\'s job in the job variable', async () => {
    const deadline = Date.now() + 60_000;
    let jobs: string[] = [];
    while (Date.now() < deadline) {
      jobs = await prometheus!.labelValues('job', `controller_runtime_reconcile_total{namespace=~"${NAMESPACE}"}`);
      if (jobs.length > 0) break;
      await sleep(500);
    }
    expect(jobs).toEqual([JOB]);
  });

  it('returns series for every query of every panel', async () => {
    const queries = dashboards.flatMap((dashboard) =>
      dashboard.panels.flatMap((panel) => (panel.targets ?? []).map((target) => ({ where: `${dashboard.title} / ${panel.title}`, expr: substitute(target.expr) }))),
    );
    expect(queries.length).toBeGreaterThan(30);
    // Rates need two scrapes after the work above; give Prometheus until then.
    const deadline = Date.now() + 90_000;
    let empty: string[];
    do {
      empty = [];
      for (const { where, expr } of queries) {
        const { series, error } = await prometheus!.query(expr);
        if (error) throw new Error(`${where}: Prometheus refuses ${expr}: ${error}`);
        if (series.length === 0) empty.push(`${where}: ${expr}`);
      }
      if (empty.length > 0) await sleep(1_000);
    } while (empty.length > 0 && Date.now() < deadline);
    expect(empty, `no series; operator log:\n${operator!.output().slice(-3000)}`).toEqual([]);
  }, 150_000);

  it('counts the denied admission and the failed reconciles', async () => {
    const denied = await prometheus!.query(`controller_runtime_webhook_admission_responses_total{job="${JOB}", allowed="false"}`);
    expect(denied.series.length).toBeGreaterThan(0);
    const errors = await prometheus!.query(`sum(controller_runtime_reconcile_errors_total{job="${JOB}"}) > 0`);
    expect(errors.series.length).toBe(1);
  });
});
