// bench/idle: what an idle operator costs before it has contacted a cluster, beside an idle
// controller-runtime manager. Each side is a fresh process that loads its kubeconfig (a
// client certificate and a CA, for a server on 127.0.0.1 that nothing contacts), creates its
// manager (metrics and probes off), collects garbage and prints its heap and RSS.
// Usage: npm run build && node bench/idle/run.mjs [--runs 5] [--no-peer]
// Targets (issue #39): heap <= 10 MB and RSS <= 70 MB for opgen. The median of the runs is
// printed with the load average, which on a shared 2-core machine moves RSS little but the
// time a lot. Also says whether @kubernetes/client-node was loaded (it should not be).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { selfSignedCertificate } from '../../runtime/dist/certs/index.js';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' }, 'no-peer': { type: 'boolean', default: false } } });
const here = dirname(fileURLToPath(import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'opgen-idle-'));
const ca = selfSignedCertificate({ commonName: 'idle-ca' });
const client = selfSignedCertificate({ commonName: 'idle-user' });
writeFileSync(join(dir, 'client.crt'), client.certPem);
writeFileSync(join(dir, 'client.key'), client.keyPem);
const kubeconfig = join(dir, 'kubeconfig');
writeFileSync(
  kubeconfig,
  [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '- name: idle',
    '  cluster:',
    '    server: https://127.0.0.1:1',
    `    certificate-authority-data: ${Buffer.from(ca.certPem).toString('base64')}`,
    'users:',
    '- name: idle',
    '  user: {client-certificate: client.crt, client-key: client.key}',
    'contexts:',
    '- name: idle',
    '  context: {cluster: idle, user: idle}',
    'current-context: idle',
    '',
  ].join('\n'),
);

// The operator: its own process, so nothing of this script's counts.
const operator = `
import { createRequire } from 'node:module';
const started = performance.now();
const { createManager } = await import('@opgen/runtime');
createManager({ kubeconfigPath: ${JSON.stringify(kubeconfig)}, handleSignals: false, logLevel: 'warn' });
const readyMs = performance.now() - started;
await new Promise((r) => setTimeout(r, 200));
for (let i = 0; i < 4; i++) globalThis.gc();
const { heapUsed, rss } = process.memoryUsage();
const clientNode = createRequire(import.meta.url).cache && Object.keys(createRequire(import.meta.url).cache).some((p) => p.includes('@kubernetes/client-node'));
console.log(JSON.stringify({ heapUsed, rss, readyMs, clientNode }));
process.exit(0);
`;
const runOperator = () => JSON.parse(execFileSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', operator], { cwd: here, encoding: 'utf8' }));

let peer;
if (!values['no-peer']) {
  try {
    peer = execFileSync('bash', [join(here, '../peers/controller-runtime/build.sh'), join(here, '../peers/controller-runtime-idle')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
  } catch {
    console.log('controller-runtime: not measured (no Go toolchain to build bench/peers/controller-runtime-idle)');
  }
}
const runPeer = () => JSON.parse(execFileSync(peer, ['--kubeconfig', kubeconfig], { encoding: 'utf8', env: { ...process.env, KUBECONFIG: '' } }));

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const mb = (bytes) => (bytes / 2 ** 20).toFixed(1);
const runs = Number(values.runs);
const ours = Array.from({ length: runs }, runOperator);
const theirs = peer ? Array.from({ length: runs }, runPeer) : [];
rmSync(dir, { recursive: true, force: true });

const load = loadavg().map((l) => l.toFixed(2)).join(' ');
console.log(`idle operator, median of ${runs} fresh processes (load average ${load}, ${process.version})`);
const heap = median(ours.map((r) => r.heapUsed));
const rss = median(ours.map((r) => r.rss));
console.log(
  `  @opgen/runtime     heap ${mb(heap)} MB (target <= 10)  RSS ${mb(rss)} MB (target <= 70)  import+create ${median(ours.map((r) => r.readyMs)).toFixed(0)} ms  client-node loaded: ${ours.some((r) => r.clientNode)}`,
);
if (theirs.length) console.log(`  controller-runtime heap ${mb(median(theirs.map((r) => r.heapUsed)))} MB               RSS ${mb(median(theirs.map((r) => r.rss)))} MB`);
process.exitCode = heap <= 10 * 2 ** 20 && rss <= 70 * 2 ** 20 && !ours.some((r) => r.clientNode) ? 0 : 1;
