// bench/webhooks: admission requests per second and p50/p99 latency through the API server for
// a trivial defaulter (sets one label), served by @opgen/runtime and by a minimal
// controller-runtime webhook (bench/peers/controller-runtime-webhook, built with Go in this run),
// against the floor (the same creates with no webhook).
// Usage: node bench/webhooks/run.mjs [--requests 2000] [--lanes 8]
// Needs `npx tsc -b runtime` first (it uses the built runtime) and Go for the peer.
// Not measured yet: conversion of 1,000 objects on a list (the Go peer has no conversion).
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createClient, kinds } from '../../runtime/dist/index.js';
import { selfSignedCertificate } from '../../runtime/dist/manager/self-signed-cert.js';
import { startControlPlane } from '../../runtime/dist/testing/index.js';

const { values } = parseArgs({ options: { requests: { type: 'string', default: '2000' }, lanes: { type: 'string', default: '8' } } });
const N = Number(values.requests);
const LANES = Number(values.lanes);
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

  const results = {};
  results.floor = await load('floor', false);
  start(process.execPath, [opgenServer, '19443', dir]);
  results.opgen = await withWebhook('opgen', 19443);
  start(peerBinary, ['--port', '19444', '--cert-dir', dir]);
  results['controller-runtime'] = await withWebhook('controllerruntime', 19444);

  const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))].toFixed(1);
  console.log(`${N} ConfigMap creates through the API server, ${LANES} in flight, trivial mutating webhook (load ${(await import('node:os')).loadavg()[0].toFixed(2)})`);
  console.log('scenario             creates/s   p50 ms   p99 ms');
  for (const [name, r] of Object.entries(results)) {
    console.log(`${name.padEnd(20)} ${String(Math.round((N * 1000) / r.wallMs)).padStart(9)} ${pct(r.latencies, 50).padStart(8)} ${pct(r.latencies, 99).padStart(8)}`);
  }
} finally {
  for (const child of children) child.kill('SIGTERM');
  await cp.stop();
  rmSync(dir, { recursive: true, force: true });
}
