// bench/webhooks: admission requests per second and p50/p99 latency through the API server for
// a trivial defaulter (sets one label), served by @opgen/runtime and by a minimal
// controller-runtime webhook (bench/peers/controller-runtime-webhook, built with Go in this run),
// against the floor (the same creates with no webhook). Then the conversion of a list: --objects
// (1,000) Items stored as v1 and listed as v2, every object converted by the webhook of each server,
// against the floor (the same list as v1, no conversion).
// Usage: node bench/webhooks/run.mjs [--requests 2000] [--lanes 8] [--objects 1000] [--lists 30]
// Needs `npx tsc -b runtime` first (it uses the built runtime) and Go for the peer.
import { execFileSync, spawn } from 'node:child_process';
import { request } from 'node:https';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createClient, kinds } from '../../runtime/dist/index.js';
import { selfSignedCertificate } from '../../runtime/dist/certs/self-signed-cert.js';
import { startControlPlane } from '../../runtime/dist/testing/index.js';

const { values } = parseArgs({
  options: { requests: { type: 'string', default: '2000' }, lanes: { type: 'string', default: '8' }, objects: { type: 'string', default: '1000' }, lists: { type: 'string', default: '30' } },
});
const N = Number(values.requests);
const LANES = Number(values.lanes);
const OBJECTS = Number(values.objects);
const LISTS = Number(values.lists);
const peerDir = new URL('../peers/controller-runtime-webhook/', import.meta.url).pathname;
const opgenServer = new URL('./opgen-server.mjs', import.meta.url).pathname;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const dir = mkdtempSync(join(tmpdir(), 'opgen-bench-webhooks-'));
const pair = selfSignedCertificate({ hosts: ['127.0.0.1'] });
writeFileSync(join(dir, 'tls.crt'), pair.certPem);
writeFileSync(join(dir, 'tls.key'), pair.keyPem);
const peerBinary = join(dir, 'controller-runtime-webhook');
execFileSync('go', ['build', '-o', peerBinary, '.'], { cwd: peerDir, stdio: ['ignore', 'ignore', 'inherit'] });

const cp = await startControlPlane();
const children = [];
try {
  const client = createClient(cp.kubeConfig);
  const MutatingWebhookConfiguration = { group: 'admissionregistration.k8s.io', version: 'v1', kind: 'MutatingWebhookConfiguration', plural: 'mutatingwebhookconfigurations', namespaced: false };

  /** Creates N ConfigMaps labelled `scenario` over LANES lanes; returns latencies (ms) and wall time. */
  async function load(scenario, expectDefaulted) {
    const latencies = [];
    let next = 0;
    const began = performance.now();
    await Promise.all(Array.from({ length: LANES }, async () => {
      while (next < N) {
        const i = next++;
        const start = performance.now();
        const created = await client.create(kinds.ConfigMap, { metadata: { name: `${scenario}-${i}`, namespace: 'default', labels: { bench: scenario } }, data: { i: String(i) } });
        latencies.push(performance.now() - start);
        if (expectDefaulted && created.metadata.labels?.defaulted !== 'true') throw new Error(`${scenario}-${i} was not defaulted`);
      }
    }));
    return { latencies: latencies.sort((a, b) => a - b), wallMs: performance.now() - began };
  }

  async function withWebhook(scenario, port) {
    await client.create(MutatingWebhookConfiguration, {
      metadata: { name: `bench-${scenario}` },
      webhooks: [{
        name: `${scenario}.bench.opgen.dev`,
        clientConfig: { url: `https://127.0.0.1:${port}/mutate`, caBundle: Buffer.from(pair.certPem).toString('base64') },
        rules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }],
        objectSelector: { matchLabels: { bench: scenario } },
        sideEffects: 'None', admissionReviewVersions: ['v1'], failurePolicy: 'Fail',
      }],
    });
    // Until the API server has the configuration and the server answers, warm-up creates are not
    // defaulted; 200 defaulted ones then warm both servers (V8's JIT, Go's connection pools) alike.
    for (let i = 0; ; i++) {
      const probe = await client.create(kinds.ConfigMap, { metadata: { name: `${scenario}-warmup-${i}`, namespace: 'default', labels: { bench: scenario } } }).catch(() => undefined);
      if (probe?.metadata.labels?.defaulted === 'true' && i >= 200) break;
      if (i > 2000) throw new Error(`the ${scenario} webhook never answered`);
      if (!probe?.metadata.labels?.defaulted) await sleep(50);
    }
    return load(scenario, true);
  }

  function start(command, args) {
    // Their logs are not the point; a server that fails to start shows as "never answered".
    const child = spawn(command, args, { env: { ...process.env, KUBECONFIG: cp.kubeconfigPath }, stdio: 'ignore' });
    children.push(child);
    return child;
  }

  /** GET of an API path, as the kubeconfig's user; the parsed body. */
  async function getJson(path) {
    const url = new URL(path, cp.kubeConfig.getCurrentCluster().server);
    const options = { method: 'GET', headers: { accept: 'application/json' } };
    await cp.kubeConfig.applyToHTTPSOptions(options);
    return new Promise((resolve, reject) => {
      const req = request(url, options, (response) => {
        const chunks = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          if (response.statusCode !== 200) reject(new Error(`GET ${path}: ${response.statusCode} ${body.slice(0, 300)}`));
          else resolve(JSON.parse(body));
        });
      });
      req.on('error', reject);
      req.end();
    });
  }

  /** The Item CRD of `<prefix>.bench.opgen.dev`: v1 stored, v2 served, converted by the server on `port`. */
  async function installItems(prefix, port) {
    const group = `${prefix}.bench.opgen.dev`;
    const schema = { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } } };
    const CRD = { group: 'apiextensions.k8s.io', version: 'v1', kind: 'CustomResourceDefinition', plural: 'customresourcedefinitions', namespaced: false };
    await client.create(CRD, {
      metadata: { name: `items.${group}` },
      spec: {
        group,
        names: { kind: 'Item', listKind: 'ItemList', plural: 'items', singular: 'item' },
        scope: 'Namespaced',
        versions: [
          { name: 'v1', served: true, storage: true, schema },
          { name: 'v2', served: true, storage: false, schema },
        ],
        conversion: {
          strategy: 'Webhook',
          webhook: { conversionReviewVersions: ['v1'], clientConfig: { url: `https://127.0.0.1:${port}/convert`, caBundle: Buffer.from(pair.certPem).toString('base64') } },
        },
      },
    });
    for (let i = 0; ; i++) {
      const established = await getJson(`/apis/${group}/v1/namespaces/default/items`).then(() => true, () => false);
      if (established) break;
      if (i > 600) throw new Error(`CRD items.${group} never served`);
      await sleep(50);
    }
    return group;
  }

  /** Stores OBJECTS Items as v1 once per group, then lists them LISTS times as `version`. */
  const stored = new Set();
  async function listConversion(prefix, port, version) {
    const group = `${prefix}.bench.opgen.dev`;
    if (!stored.has(group)) {
      await installItems(prefix, port);
      const Item = { group, version: 'v1', kind: 'Item', plural: 'items', namespaced: true };
      let next = 0;
      await Promise.all(Array.from({ length: LANES }, async () => {
        while (next < OBJECTS) {
          const i = next++;
          await client.create(Item, { metadata: { name: `item-${i}`, namespace: 'default' }, spec: { size: i + 1, image: `img:${i}` } });
        }
      }));
      stored.add(group);
    }
    const path = `/apis/${group}/${version}/namespaces/default/items`;
    const check = (list) => {
      if (list.items.length !== OBJECTS) throw new Error(`${path} listed ${list.items.length} Items, not ${OBJECTS}`);
      if (version === 'v2' && list.items.some((o) => o.apiVersion !== `${group}/v2` || o.spec.replicas === undefined)) throw new Error(`${path} was not converted`);
    };
    // Warm-up: until the API server calls the server and V8 and Go have warmed alike.
    for (let i = 0; i < 5; i++) check(await getJson(path));
    const latencies = [];
    const began = performance.now();
    for (let i = 0; i < LISTS; i++) {
      const start = performance.now();
      check(await getJson(path));
      latencies.push(performance.now() - start);
    }
    return { latencies: latencies.sort((a, b) => a - b), wallMs: performance.now() - began };
  }

  const results = {};
  results.floor = await load('floor', false);
  start(process.execPath, [opgenServer, '19443', dir]);
  results.opgen = await withWebhook('opgen', 19443);
  start(peerBinary, ['--port', '19444', '--cert-dir', dir]);
  results['controller-runtime'] = await withWebhook('controllerruntime', 19444);

  const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))].toFixed(1);
  const load1 = () => loadavg()[0].toFixed(2);
  console.log(`${N} ConfigMap creates through the API server, ${LANES} in flight, trivial mutating webhook (load ${load1()})`);
  console.log('scenario             creates/s   p50 ms   p99 ms');
  for (const [name, r] of Object.entries(results)) {
    console.log(`${name.padEnd(20)} ${String(Math.round((N * 1000) / r.wallMs)).padStart(9)} ${pct(r.latencies, 50).padStart(8)} ${pct(r.latencies, 99).padStart(8)}`);
  }

  // Conversion: each server gets its own group of the same CRD, so both run in one control plane.
  const conversions = {};
  conversions.floor = await listConversion('opgen', 19443, 'v1');
  conversions.opgen = await listConversion('opgen', 19443, 'v2');
  conversions['controller-runtime'] = await listConversion('cr', 19444, 'v2');
  console.log(`\n${LISTS} lists of ${OBJECTS} Items stored as v1, through the API server; floor lists v1 (no conversion) (load ${load1()})`);
  console.log('scenario             objects/s   p50 ms   p99 ms');
  for (const [name, r] of Object.entries(conversions)) {
    console.log(`${name.padEnd(20)} ${String(Math.round((LISTS * OBJECTS * 1000) / r.wallMs)).padStart(9)} ${pct(r.latencies, 50).padStart(8)} ${pct(r.latencies, 99).padStart(8)}`);
  }
} finally {
  for (const child of children) child.kill('SIGTERM');
  await cp.stop();
  rmSync(dir, { recursive: true, force: true });
}
