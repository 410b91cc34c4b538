// bench/semantics: issue 36's design (b) measured beside opgen's TypeScript path, in one run.
// The API server's own Go code (hack/semantics-wasm) answers "is this CRD valid" and "is this
// object valid against that CRD" twice, as WebAssembly in this process and as a native helper on
// a pipe; the memory cluster's schema module (runtime/src/internal/semantics) answers the
// same calls. Printed: what npm would fetch, cold load in a fresh Node process, time per call,
// memory, and where the TypeScript answers differ from the Go ones (fidelity).
// The corpus is the suite's own (test/fixtures/corpus); bench/semantics/fidelity.ts compares the Go
// answers with kube-apiserver's recorded ones.
// Usage: bash hack/semantics-wasm/build.sh && npm run build
//        node bench/semantics/run.mjs [--loads 5] [--objects 300] [--rounds 5] [--seed 1] [--show 8]
// Timings are wall-clock on a shared machine: the load average is printed beside them.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { parseAllDocuments } from 'yaml';
import { admitCrd, decodeCustomObject, validateCustomObject } from '../../runtime/dist/internal/semantics/index.js';
import { checkCelTypes } from '../../runtime/dist/internal/cel/index.js';
import { checkStructural } from '../../dist/validation/structural.js';
import { checkCelRule } from '../../dist/validation/cel.js';
import { nativeClient, wasmClient } from './clients.mjs';
import { fixtureCases, fixtureCrd } from './fixtures.mjs';
import { mutate, rng } from './mutate.mjs';

const { values } = parseArgs({
  options: {
    loads: { type: 'string', default: '5' },
    objects: { type: 'string', default: '300' },
    rounds: { type: 'string', default: '5' },
    seed: { type: 'string', default: '1' },
    show: { type: 'string', default: '8' },
  },
});
const root = new URL('../..', import.meta.url).pathname;
// --print fails with its own message when the build is missing.
const wasm = execFileSync('bash', [join(root, 'hack/semantics-wasm/build.sh'), '--print'], { encoding: 'utf8' }).trim();
const out = dirname(wasm);
const helper = join(out, 'semantics-native');
const corpus = join(root, 'test/fixtures/corpus');

const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
const quantile = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))];
const ms = (x) => (x < 1 ? `${(x * 1000).toFixed(0)} µs` : `${x.toFixed(1)} ms`);
const mb = (bytes) => `${(bytes / 2 ** 20).toFixed(1)} MB`;
function table(title, head, rows) {
  const all = [head, ...rows].map((r) => r.map(String));
  const width = head.map((_, i) => Math.max(...all.map((r) => r[i].length)));
  console.log(`\n${title}`);
  for (const r of all) console.log(`  ${r.map((c, i) => c.padEnd(width[i])).join('  ')}`);
}

// ---- the corpus -------------------------------------------------------------------------------
function yamlFiles(dir) {
  return readdirSync(dir, { recursive: true })
    .map((f) => join(dir, f))
    .filter((f) => /\.ya?ml$/.test(f) && statSync(f).isFile())
    .sort();
}
const docs = (file) => parseAllDocuments(readFileSync(file, 'utf8')).map((d) => d.toJSON()).filter((d) => d && typeof d === 'object');
const crdsIn = (dir) => yamlFiles(dir).flatMap(docs).filter((d) => d.kind === 'CustomResourceDefinition');
const gatewayCrds = crdsIn(join(corpus, 'gateway-api'));
const crossplaneCrds = crdsIn(join(corpus, 'crossplane'));
const allCrds = crdsIn(corpus);
const examples = yamlFiles(join(corpus, 'gateway-api/examples')).flatMap(docs);

/** The CRD that serves `object`'s apiVersion and kind, and the version. */
function servingCrd(crds, object) {
  const [group, version] = String(object.apiVersion).split('/');
  const crd = crds.find((c) => c.spec.group === group && c.spec.names.kind === object.kind);
  return crd?.spec.versions.some((v) => v.name === version && v.served) ? { crd, version } : undefined;
}
const random = rng(Number(values.seed));
// A request to a namespaced resource carries its namespace in the URL; kubectl's is `default`.
const inNamespace = (object, crd) => (crd.spec.scope === 'Namespaced' ? { ...object, metadata: { namespace: 'default', ...object.metadata } } : object);
const served = examples
  .map((object) => ({ object, ...servingCrd(gatewayCrds, object) }))
  .filter((e) => e.crd)
  .map((e) => ({ ...e, object: inNamespace(e.object, e.crd) }));
/** An update names the resourceVersion it read. */
const stored = (object) => ({ ...structuredClone(object), metadata: { ...object.metadata, resourceVersion: '1' } });
/** Create cases: the examples as published, then seeded mutations of them; update cases: a mutation of a valid example. */
const objectCases = [];
for (let i = 0; objectCases.length < Number(values.objects); i++) {
  const base = served[i % served.length];
  const object = i < served.length ? structuredClone(base.object) : mutate(base.object, random);
  const update = i >= served.length && i % 3 === 0;
  const oldObject = update ? stored(base.object) : undefined;
  objectCases.push({ crd: base.crd, version: base.version, object: update ? stored(object) : object, oldObject, name: `${base.object.kind}/${base.object.metadata.name}#${i}` });
}

// ---- the three ways ---------------------------------------------------------------------------
/** The memory cluster's path: admitCrd, decodeCustomObject then validateCustomObject. */
const ts = {
  validateCrd: (crd) => admitCrd(crd),
  validateObject: ({ crd, version, object, oldObject }) => {
    const decoded = decodeCustomObject({ crd, version, object: structuredClone(object) }).object;
    const old = oldObject && decodeCustomObject({ crd, version, object: structuredClone(oldObject) }).object;
    return { errors: validateCustomObject({ crd, version, object: decoded, oldObject: old }), object: decoded };
  },
};
/** `opgen manifests`' checks of a schema (structural, CEL syntax, CEL types and cost), over every version. */
function cliProblems(crd) {
  return crd.spec.versions.flatMap((v) => {
    const schema = v.schema?.openAPIV3Schema;
    if (!schema) return [];
    const rules = [];
    const walk = (s) => {
      if (!s || typeof s !== 'object') return;
      for (const r of s['x-kubernetes-validations'] ?? []) rules.push(r.rule);
      for (const child of [...Object.values(s.properties ?? {}), s.items, s.additionalProperties]) walk(child);
    };
    walk(schema);
    return [
      ...checkStructural(schema).map((p) => `${v.name}: ${p.path}: ${p.message}`),
      ...rules.map((r) => checkCelRule(r)).filter(Boolean).map((p) => `${v.name}: ${p.message}`),
      ...checkCelTypes(schema).map((p) => `${v.name}: ${p.path ?? ''}: ${p.message}`),
    ];
  });
}

/** A Go client's calls, with the CRD loaded once per CRD as the API server does when it starts serving it. */
function goWay(client) {
  const ids = new Map();
  const idOf = async (crd) => {
    if (!ids.has(crd)) {
      const res = await client.call({ op: 'loadCRD', crd });
      if (res.failed) throw new Error(`loadCRD ${crd.metadata.name}: ${res.failed}`);
      ids.set(crd, res.id);
    }
    return ids.get(crd);
  };
  return {
    client,
    idOf,
    validateCrd: async (crd) => (await client.call({ op: 'validateCRD', crd })).errors,
    validateObject: async ({ crd, version, object, oldObject }) => {
      const res = await client.call({ op: 'validateObject', id: await idOf(crd), version, object, oldObject });
      if (res.failed) throw new Error(res.failed);
      return res;
    },
  };
}

// ---- size and cold load -----------------------------------------------------------------------
console.log(`bench/semantics  (load average at start: ${load()}; a shared machine, other helpers running)`);
const sizes = [wasm, helper].map((f) => {
  const bytes = readFileSync(f);
  return [f.slice(out.length + 1), mb(bytes.length), mb(gzipSync(bytes, { level: 9 }).length)];
});
table('What npm would fetch (one artefact; a native helper is one package per platform)', ['artefact', 'raw', 'gzip -9'], sizes);

const probe = (kind, flags) => JSON.parse(execFileSync(process.execPath, ['--no-warnings', ...flags, join(root, 'bench/semantics/load-probe.mjs'), kind, kind === 'wasm' ? wasm : helper], { encoding: 'utf8' }));
const loads = [];
// V8 tiers Go's very large wasm functions up to TurboFan while Go's package inits run; with
// --liftoff-only it keeps the baseline code, which starts far sooner on a busy machine.
for (const [kind, flags] of [['ts', []], ['wasm', []], ['wasm', ['--liftoff-only']], ['native', []]]) {
  const runs = Array.from({ length: Number(values.loads) }, () => probe(kind, flags));
  const medianRss = quantile(runs.map((r) => r.rssMB), 0.5);
  const helperRss = quantile(runs.map((r) => r.helperRssMB), 0.5);
  const med = (k) => ms(quantile(runs.map((r) => r[k]), 0.5));
  loads.push([[kind, ...flags].join(' '), med('loadMs'), ms(Math.max(...runs.map((r) => r.loadMs))), med('fileMs'), `${medianRss.toFixed(0)} MB`, helperRss ? `${helperRss.toFixed(0)} MB` : '-']);
}
table(
  `Cold start in a fresh node process (median of ${values.loads}; load ${load()}); a test file: + create and load a CRD, validate 10 objects`,
  ['path', 'first answer', 'max', 'test file', 'node RSS', 'helper RSS'],
  loads,
);

// ---- time per call ----------------------------------------------------------------------------
const ways = { ts, wasm: goWay(await wasmClient(wasm)), native: goWay(await nativeClient(helper)) };
async function timed(fn, items, rounds) {
  for (const item of items) await fn(item); // warm: CEL programs compiled, caches filled
  const times = [];
  for (let r = 0; r < rounds; r++) {
    for (const item of items) {
      const t = performance.now();
      await fn(item);
      times.push(performance.now() - t);
    }
  }
  return times;
}
const rows = [];
const rounds = Number(values.rounds);
for (const [name, way] of Object.entries(ways)) {
  const crdTimes = await timed(way.validateCrd, gatewayCrds, rounds);
  rows.push([name, `validate CRD (${gatewayCrds.length} Gateway API CRDs)`, crdTimes.length, ms(quantile(crdTimes, 0.5)), ms(quantile(crdTimes, 0.95))]);
  if (way.idOf) {
    const loadTimes = [];
    for (const crd of gatewayCrds) {
      const t = performance.now();
      await way.client.call({ op: 'loadCRD', crd });
      loadTimes.push(performance.now() - t);
    }
    rows.push([name, 'load CRD (schemas + CEL programs)', loadTimes.length, ms(quantile(loadTimes, 0.5)), ms(quantile(loadTimes, 0.95))]);
  }
  const objectTimes = await timed(way.validateObject, objectCases, rounds);
  rows.push([name, `decode + validate object (${objectCases.length})`, objectTimes.length, ms(quantile(objectTimes, 0.5)), ms(quantile(objectTimes, 0.95))]);
}
const rss = [`node RSS now ${mb(process.memoryUsage().rss)}`, `helper RSS ${Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${ways.native.client.pid}/status`, 'utf8'))[1]) >> 10} MB`];
table(`Time per call, warm, ${rounds} rounds (node ${process.execArgv.join(' ') || 'without flags'}; load ${load()}; ${rss.join(', ')})`, ['path', 'call', 'n', 'median', 'p95'], rows);

// ---- fidelity ---------------------------------------------------------------------------------
const key = (errors) => errors.map((e) => `${e.type} ${e.field}`).sort().join('\n');
const shown = [];
const show = (line) => shown.length < Number(values.show) && shown.push(line);
const fidelity = [];
/** Object differences grouped by cause (type and field with indices erased), with one example each. */
const categories = new Map();
function tally(go, mine, name) {
  const general = (e) => `${e.type} ${e.field.replace(/\[\d+\]/g, '[*]')}`;
  const only = (a, b, side) => a.filter((e) => !b.some((f) => f.type === e.type && f.field === e.field)).map((e) => [`${side} ${general(e)}`, e]);
  for (const [category, e] of [...only(go, mine, 'only Go:'), ...only(mine, go, 'only TS:')]) {
    const entry = categories.get(category) ?? { n: 0, example: `${name}: ${e.detail ?? ''}` };
    entry.n++;
    categories.set(category, entry);
  }
}
async function crdFidelity(label, crds) {
  let tsDiff = 0;
  let cliRefused = 0;
  let goRefused = 0;
  let nativeDiff = 0;
  for (const crd of crds) {
    const go = await ways.wasm.validateCrd(crd);
    if (key(await ways.native.validateCrd(crd)) !== key(go)) nativeDiff++;
    if (go.length) goRefused++;
    const mine = ts.validateCrd(crd);
    if (key(mine) !== key(go)) {
      tsDiff++;
      show(`${label} ${crd.metadata.name}: Go ${JSON.stringify(go.slice(0, 2))} | memory cluster ${JSON.stringify(mine.slice(0, 2))}`);
    }
    const cli = cliProblems(crd);
    if (cli.length && !go.length) {
      cliRefused++;
      show(`${label} ${crd.metadata.name}: opgen manifests' checks refuse what the Go code accepts: ${cli[0]}`);
    }
  }
  fidelity.push([label, crds.length, goRefused, tsDiff, cliRefused, nativeDiff]);
}
const brief = (errors) => errors.map((e) => `${e.type.replace('FieldValue', '')} ${e.field}`).join('; ') || 'valid';
const caseRows = [];
async function objectFidelity(label, cases, perCase = false) {
  let diff = 0;
  let decodedDiff = 0;
  let nativeDiff = 0;
  let goRefused = 0;
  for (const c of cases) {
    const go = await ways.wasm.validateObject(c);
    const native = await ways.native.validateObject(c);
    if (key(native.errors) !== key(go.errors)) nativeDiff++;
    if (go.errors.length) goRefused++;
    let mine;
    try {
      mine = ts.validateObject(c);
    } catch (error) {
      mine = { errors: [{ type: 'thrown', field: String(error.message).slice(0, 120) }], object: undefined };
    }
    if (perCase) caseRows.push([c.name, brief(go.errors).slice(0, 70), brief(mine.errors).slice(0, 70)]);
    if (key(mine.errors) !== key(go.errors)) {
      diff++;
      tally(go.errors, mine.errors, c.name);
    }
    if (!go.errors.length && JSON.stringify(sortKeys(mine.object)) !== JSON.stringify(sortKeys(go.object))) decodedDiff++;
  }
  fidelity.push([label, cases.length, goRefused, diff, decodedDiff, nativeDiff]);
}
const sortKeys = (v) => (Array.isArray(v) ? v.map(sortKeys) : v && typeof v === 'object' ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortKeys(v[k])])) : v);

await crdFidelity('Gateway API CRDs', gatewayCrds);
await crdFidelity('Crossplane CRDs', crossplaneCrds);
await crdFidelity(`all ${allCrds.length} corpus CRDs`, allCrds);
await crdFidelity('fixture CRD', [fixtureCrd]);
const fidelityHead = ['corpus', 'n', 'Go refuses', 'TS differs', 'CLI refuses valid / decoded differs', 'wasm≠native'];
await objectFidelity('Gateway API objects', objectCases);
await objectFidelity('fixture objects', fixtureCases(crossplaneCrds), true);
table('Fidelity: cause sets (type + field) of the memory cluster vs the Go code', fidelityHead, fidelity);
table('The issue\'s named cases (fixture objects)', ['case', 'Go', 'memory cluster'], caseRows);
table('Object differences by cause', ['n', 'cause', 'example'], [...categories].sort((a, b) => b[1].n - a[1].n).map(([category, { n, example }]) => [n, category, example.slice(0, 160)]));
console.log(`\nFirst ${shown.length} CRD differences:`);
for (const line of shown) console.log(`  - ${line.slice(0, 400)}`);
for (const way of Object.values(ways)) way.client?.close();
console.log(`\nload average at end: ${load()}`);
