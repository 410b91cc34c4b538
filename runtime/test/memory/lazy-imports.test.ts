import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCRDs } from '../../src/testing/index.js';

// A project's `npm test` on the memory tier waits for what its test file imports: the built
// runtime (as a user installs it) must not load @kubernetes/client-node (some 800 modules)
// nor the control plane's code there; the control plane's code loads when it is asked for,
// client-node only for an auth-provider or proxy-url kubeconfig. Needs `npx tsc -b runtime` first.

const dist = fileURLToPath(new URL('../../dist/', import.meta.url));
const crds = fileURLToPath(new URL('../../../bench/testing/gadget-crd.yaml', import.meta.url));
const run = promisify(execFile);
let scratch: string;

beforeAll(() => {
  if (!existsSync(join(dist, 'testing/index.js'))) throw new Error('runtime/dist is missing: run npx tsc -b runtime first');
  scratch = mkdtempSync(join(tmpdir(), 'opgen-lazy-imports-'));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Runs `body` (an ES module's text) in a fresh Node process; returns every file it loaded and what it printed. */
async function loading(name: string, body: string): Promise<{ loaded: string[]; stdout: string }> {
  const log = join(scratch, `${name}.log`);
  const hooks = join(scratch, 'hooks.mjs');
  writeFileSync(hooks, `import { appendFileSync } from 'node:fs';\nexport async function load(url, context, next) { appendFileSync(process.env.LOADED_LOG, url + '\\n'); return next(url, context); }\n`);
  const preload = join(scratch, 'preload.mjs');
  writeFileSync(preload, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
  const script = join(scratch, `${name}.mjs`);
  writeFileSync(script, body);
  writeFileSync(log, '');
  const { stdout } = await run('node', ['--import', pathToFileURL(preload).href, script], { env: { ...process.env, LOADED_LOG: log } });
  return { loaded: readFileSync(log, 'utf8').split('\n').filter(Boolean), stdout };
}

const runtime = (subpath: string) => JSON.stringify(pathToFileURL(join(dist, subpath)).href);

describe('what a memory-tier test loads', () => {
  it('a manager on the memory cluster with CRDs runs without client-node or the control plane', async () => {
    const { loaded, stdout } = await loading(
      'memory',
      `import { createManager } from ${runtime('index.js')};\n` +
        `import { startTestCluster } from ${runtime('testing/index.js')};\n` +
        `const test = await startTestCluster({ tier: 'memory', crds: ${JSON.stringify(crds)} });\n` +
        `const mgr = createManager({ cluster: test.cluster, handleSignals: false, logLevel: 'warn' });\n` +
        `const running = mgr.start();\nawait mgr.elected();\n` +
        `const Gadget = { group: 'bench.opgen.dev', version: 'v1', kind: 'Gadget', plural: 'gadgets', namespaced: true };\n` +
        `await mgr.client.create(Gadget, { metadata: { name: 'g', namespace: 'default' }, spec: { foo: 'bar' } });\n` +
        `console.log('foo', (await mgr.client.get(Gadget, 'g', 'default')).spec.foo);\nmgr.stop();\nawait running;\nawait test.stop();\n`,
    );
    expect(stdout).toBe('foo bar\n');
    expect(loaded.some((url) => url.includes('/dist/testing/memory/cluster.js'))).toBe(true);
    expect(loaded.filter((url) => url.includes('@kubernetes/client-node'))).toEqual([]);
    expect(loaded.filter((url) => /\/dist\/testing\/(controlplane|apiserver|etcd|identities|kubeconfig)\.js$/.test(url))).toEqual([]);
  });

  it('a client on a kubeconfig, its token sent to a server, loads no client-node', async () => {
    const kubeconfig = join(scratch, 'kubeconfig');
    writeFileSync(
      kubeconfig,
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [{ name: 'c', cluster: { server: 'https://127.0.0.1:6443' } }],
        users: [{ name: 'u', user: { token: 't' } }],
        contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
        'current-context': 'x',
      }),
    );
    // A server on loopback that answers every request with the Authorization header it got.
    const body =
      `import { createServer } from 'node:http';\nimport { createRequire } from 'node:module';\n` +
      `import { loadKubeConfig } from ${runtime('manager/index.js')};\n` +
      `import { createClient, kinds } from ${runtime('client/index.js')};\n` +
      `const server = createServer((req, res) => res.end(JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: req.headers.authorization } })));\n` +
      `await new Promise((r) => server.listen(0, '127.0.0.1', r));\n` +
      `const config = loadKubeConfig(${JSON.stringify(kubeconfig)});\n` +
      `const local = { ...config, clusters: [{ name: 'c', server: 'http://127.0.0.1:' + server.address().port, skipTLSVerify: true }] };\n` +
      `console.log((await createClient(local).get(kinds.Namespace, 'default')).metadata.name);\n` +
      `server.close();\n` +
      // The runtime loads client-node with require(), which the load hook does not see.
      `console.log(Object.keys(createRequire(import.meta.url).cache).filter((p) => p.includes('@kubernetes/client-node')).length);\n`;
    const { loaded, stdout } = await loading('kubeconfig', body);
    expect(stdout).toBe('Bearer t\n0\n');
    expect(loaded.filter((url) => url.includes('@kubernetes/client-node'))).toEqual([]);
  });
});

describe('what an operator that does not trace loads', () => {
  // The OpenTelemetry SDK (its tracer, OTLP exporter, resources: some 200 modules) loads
  // only once tracing is on. @opentelemetry/api is prom-client's, loaded either way.
  it('a manager without --otlp-endpoint loads no OpenTelemetry SDK; exporting spans loads it', async () => {
    const sdk = `Object.keys(createRequire(import.meta.url).cache).filter((p) => /@opentelemetry\\/(?!api\\/)/.test(p)).length`;
    const { stdout } = await loading(
      'tracing',
      `import { createRequire } from 'node:module';\n` +
        `import { createManager } from ${runtime('index.js')};\n` +
        `import { exportReconcileSpans } from ${runtime('observe/index.js')};\n` +
        `import { startTestCluster } from ${runtime('testing/index.js')};\n` +
        `const test = await startTestCluster({ tier: 'memory', crds: ${JSON.stringify(crds)} });\n` +
        `const mgr = createManager({ cluster: test.cluster, handleSignals: false, logLevel: 'warn' });\n` +
        `const running = mgr.start();\nawait mgr.elected();\nmgr.stop();\nawait running;\nawait test.stop();\n` +
        `console.log(${sdk});\n` +
        `await (await exportReconcileSpans({ endpoint: 'http://127.0.0.1:4318' })).stop();\n` +
        `console.log(${sdk} > 0);\n`,
    );
    expect(stdout).toBe('0\ntrue\n');
  });
});

describe('readCRDs', () => {
  it('names the file of a document that is not YAML', () => {
    const broken = join(scratch, 'broken.yaml');
    writeFileSync(broken, 'apiVersion: apiextensions.k8s.io/v1\nkind: [CustomResourceDefinition\n');
    expect(() => readCRDs(broken)).toThrow(new RegExp(`^${broken.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: not valid YAML: `));
  });

  it('reads every CRD of a multi-document file and skips other documents', () => {
    const file = join(scratch, 'crds.yaml');
    const crd = (plural: string) => `apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: ${plural}.example.com\n`;
    writeFileSync(file, `${crd('widgets')}---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: other\n---\n${crd('gadgets')}---\n`);
    expect(readCRDs(file).map((c) => c.metadata?.name)).toEqual(['widgets.example.com', 'gadgets.example.com']);
  });

  // installCRDs hands them to client-node's API client, which writes only its model's fields.
  it("gives client-node's model of a CRD, schema keywords under the model's names", () => {
    const file = join(scratch, 'int-or-string.yaml');
    writeFileSync(
      file,
      'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: widgets.example.com\nspec:\n  versions:\n    - name: v1\n' +
        '      schema:\n        openAPIV3Schema:\n          type: object\n          properties:\n            size:\n              x-kubernetes-int-or-string: true\n              default: 1Gi\n',
    );
    const size = readCRDs(file)[0]!.spec.versions[0]!.schema!.openAPIV3Schema!.properties!.size!;
    expect(size).toEqual({ x_kubernetes_int_or_string: true, _default: '1Gi' });
  });
});
