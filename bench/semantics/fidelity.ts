// bench/semantics/fidelity: the Go kernel (hack/semantics-wasm, as WebAssembly) on the suite's own
// real-world corpus (test/fixtures/corpus) beside the memory cluster and kube-apiserver 1.36.3.
// Three inputs: every corpus CRD (create), every published example object (create), and the
// fuzz run's cases (runtime/test/memory/fuzz) with the API server's answers replayed from a
// FUZZ_RECORD file of the same seed and count. Printed: agreement counts per input and area.
// Usage (the API server's side is recorded once, on the real control plane):
//   FUZZ_COUNT=3000 FUZZ_RECORD=/tmp/fuzz.json npx vitest run --project suite runtime/test/memory/fuzz
//   bash hack/semantics-wasm/build.sh
//   bash bench/semantics/fidelity.sh /tmp/fuzz.json 3000 [seed 36]
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { isDeepStrictEqual } from 'node:util';
import { createMemoryCluster } from '../../runtime/src/testing/index.js';
import { mergePatch } from '../../runtime/src/testing/memory/server/patch.js';
import { corpusCrds, corpusExamples } from '../../test/corpus/corpus.js';
import { answer, requestOf, type Answer } from '../../runtime/test/memory/fuzz/answer.js';
import { NAMESPACE, baseName, baseObject, fuzzCase, targetsOf, type FuzzCase, type Target } from '../../runtime/test/memory/fuzz/cases.js';
import { random } from '../../runtime/test/memory/fuzz/prng.js';
import { replayTransport, type Recording } from '../../runtime/test/memory/fuzz/recording.js';
import { COMPILER_MASK, COMPILER_TEXT } from '../../runtime/test/memory/differential/differences.js';
import { normalize } from '../../runtime/test/memory/differential/normalize.js';
import type { Transport } from '../../runtime/src/rest/transport.js';
// @ts-expect-error: a plain ES module of the bench, without types.
import { wasmClient } from './clients.mjs';

type Obj = Record<string, unknown>;
interface GoError {
  type: string;
  field: string;
  detail: string;
}
interface GoAnswer {
  errors: GoError[];
  unknown?: string[];
  badRequest?: string;
  object?: Obj;
  id?: number;
  failed?: string;
}

const [recordingFile, countArg, seedArg] = process.argv.slice(2);
if (!recordingFile) throw new Error('usage: node bench/out/fidelity.mjs FUZZ_RECORD_FILE COUNT [SEED]');
const COUNT = Number(countArg ?? 3000);
const SEED = Number(seedArg ?? 36);
const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
const root = new URL('../..', import.meta.url).pathname;
const wasmPath = execFileSync('bash', [`${root}hack/semantics-wasm/build.sh`, '--print'], { encoding: 'utf8' }).trim();
const go: { call(request: Obj): Promise<GoAnswer> } = await wasmClient(wasmPath);
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

const corpus = corpusCrds();
const crds = corpus.map(({ doc }) => doc);
const recording = JSON.parse(readFileSync(recordingFile, 'utf8')) as Recording;
const real = replayTransport(recording);
const memory = await createMemoryCluster({ crds: [] });

/**
 * The API server's answer as the fuzz run's `answer` shows it: causes as a sorted set, compiler
 * wording masked, a stored object normalized. fieldValidation=Strict refuses what pruning dropped
 * while decoding, before any validation: a create or update with 400 BadRequest ("strict decoding
 * error"), a patch with 422 on the patch.
 */
function goAnswer(res: GoAnswer, strict?: 'decode' | 'patch'): Answer {
  if (res.failed) return { code: -1, message: res.failed };
  if (res.badRequest) return { code: 400, reason: 'BadRequest' };
  if (strict && res.unknown?.length) return strict === 'patch' ? { code: 422, reason: 'Invalid' } : { code: 400, reason: 'BadRequest' };
  if (res.errors.length) {
    const causes = res.errors.map((e) => `${e.type} ${e.field}: ${e.detail.replace(COMPILER_TEXT, COMPILER_MASK)}`).sort();
    return { code: 422, reason: 'Invalid', causes };
  }
  if (res.object === undefined) return { code: '2xx' };
  const [normalized] = normalize([{ step: '', status: '2xx', body: res.object }]);
  return { code: '2xx', object: normalized!.body };
}

/**
 * Same verdict; and for a refusal the same code and causes, for a success the same stored object
 * (less metadata). A CRD's create is compared by verdict only: the kernel answers no stored CRD.
 */
function compare(a: Answer, b: Answer): 'exact' | 'verdict' | 'differs' {
  if ((a.code === '2xx') !== (b.code === '2xx')) return 'differs';
  if (a.code === '2xx' && (a.object === undefined || b.object === undefined)) return 'verdict';
  const body = (x: Answer) => {
    const { metadata: _metadata, ...rest } = (x.object ?? {}) as Obj;
    return rest;
  };
  if (a.code === '2xx') return isDeepStrictEqual(body(a), body(b)) ? 'exact' : 'verdict';
  if (a.code !== b.code) return 'verdict';
  // Several causes: the server's message lists them in random order; a single one is compared as a cause.
  return a.causes === undefined || b.causes === undefined || isDeepStrictEqual(a.causes, b.causes) ? 'exact' : 'verdict';
}

interface Row {
  n: number;
  goReal: Record<string, number>;
  goMemory: Record<string, number>;
  memoryReal: Record<string, number>;
  skipped: number;
}
const rows = new Map<string, Row>();
const examplesShown: string[] = [];
function count(label: string, goSide: Answer | undefined, realSide: Answer | undefined, memorySide: Answer, name: string): void {
  const row = rows.get(label) ?? { n: 0, goReal: {}, goMemory: {}, memoryReal: {}, skipped: 0 };
  rows.set(label, row);
  row.n++;
  if (!goSide) {
    row.skipped++;
    return;
  }
  const bump = (tally: Record<string, number>, verdict: string) => (tally[verdict] = (tally[verdict] ?? 0) + 1);
  const goReal = realSide ? compare(goSide, realSide) : 'no recording';
  bump(row.goReal, goReal);
  bump(row.goMemory, compare(goSide, memorySide));
  if (realSide) bump(row.memoryReal, compare(memorySide, realSide));
  if (goReal !== 'exact' && goReal !== 'no recording' && !label.startsWith(' ') && !(goSide.code === '2xx' && goSide.object === undefined) && examplesShown.length < 30) {
    const line = (x: Answer) => JSON.stringify(x.code === '2xx' ? { code: x.code, spec: firstDifference(goSide.object, realSide!.object) } : x).slice(0, 400);
    examplesShown.push(`${label} ${name} [${goReal}]\n      Go:  ${line(goSide)}\n      API: ${line(realSide!)}`);
  }
}

/** Where two stored objects first differ (metadata left out), as path and both values. */
function firstDifference(a: unknown, b: unknown, path = ''): string | undefined {
  if (isDeepStrictEqual(a, b)) return undefined;
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) === !Array.isArray(b)) {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      if (path === '' && key === 'metadata') continue;
      const found = firstDifference((a as Obj)[key], (b as Obj)[key], `${path}.${key}`);
      if (found) return found;
    }
    return undefined;
  }
  return `${path}: Go ${JSON.stringify(a)?.slice(0, 80)} API ${JSON.stringify(b)?.slice(0, 80)}`;
}

// ---- CRDs: create each on the memory cluster; the API server's answer is the recording's ------
const ids = new Map<string, number>();
for (const { project, file, doc } of corpus) {
  const request = { method: 'POST' as const, path: CRDS, body: doc };
  const realSide = await answer(real, request).catch(() => undefined);
  const memorySide = await answer(memory.transport, request);
  const res = await go.call({ op: 'validateCRD', crd: doc });
  count('CRDs (create)', goAnswer(res), realSide?.code === -1 ? undefined : realSide, memorySide, `${project}/${file}`);
  const loaded = await go.call({ op: 'loadCRD', crd: doc });
  if (loaded.failed) throw new Error(`loadCRD ${project}/${file}: ${loaded.failed}`);
  ids.set((doc.metadata as Obj).name as string, loaded.id!);
}
const crdOf = (apiVersion: string, kind: string) =>
  crds.find((crd) => {
    const spec = crd.spec as { group: string; names: { kind: string } };
    return `${spec.group}/` === apiVersion.slice(0, spec.group.length + 1) && spec.names.kind === kind;
  });
const idOf = (crd: Obj) => ids.get((crd.metadata as Obj).name as string)!;

// ---- published examples: created on the memory cluster; the API server's agreement with it is the
// corpus suite's assertion (runtime/test/memory/corpus), not recorded here --------------------------
for (const [i, { project, file, doc }] of corpusExamples().entries()) {
  const crd = crdOf(String(doc.apiVersion), String(doc.kind));
  if (!crd) continue;
  const namespaced = (crd.spec as Obj).scope === 'Namespaced';
  const namespace = `corpus-ex${i}`;
  await answer(memory.transport, { method: 'POST', path: '/api/v1/namespaces', body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } } });
  const body = { ...doc, metadata: { ...(doc.metadata as Obj), ...(namespaced && { namespace }) } };
  const plural = (crd.spec as { names: { plural: string } }).names.plural;
  const path = namespaced ? `/apis/${doc.apiVersion}/namespaces/${namespace}/${plural}` : `/apis/${doc.apiVersion}/${plural}`;
  const memorySide = await answer(memory.transport, { method: 'POST', path, body, query: { dryRun: 'All' } });
  const res = await go.call({ op: 'validateObject', id: idOf(crd), version: String(doc.apiVersion).split('/')[1], object: body });
  count('examples (create)', goAnswer(res), undefined, memorySide, `${project}/${file}`);
}

// ---- fuzz cases ----------------------------------------------------------------------------------
const targets = targetsOf(crds);
const memoryFuzz = await createMemoryCluster({ crds });
/** The base objects: as the API server stored them, and each side's resourceVersion, raw and as the fuzz run's token. */
const bases = { real: new Map<string, Obj>(), realToken: new Map<string, string>(), memory: new Map<string, string>(), memoryToken: new Map<string, string>() };
for (const transport of [real, memoryFuzz.transport]) {
  await transport.request({ method: 'POST', path: '/api/v1/namespaces', body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMESPACE } } });
}
/** As the fuzz run's createBase: the first generated object the API server accepted, on both sides. */
async function createBase(target: Target, targetIndex: number): Promise<void> {
  for (let attempt = 0; attempt < 12; attempt++) {
    const body = { ...baseObject(target, random(SEED * 7919 + targetIndex * 131 + attempt)), metadata: { name: baseName(target) } };
    const request = { method: 'POST' as const, path: target.collection, body };
    const stored = await (real as Transport).request<Obj>(request).catch(() => undefined);
    if (!stored) continue;
    const onMemory = await answer(memoryFuzz.transport, request);
    const version = ((onMemory.object as Obj | undefined)?.metadata as Obj | undefined)?.resourceVersion as string | undefined;
    if (!version) return;
    bases.real.set(target.id, stored);
    bases.realToken.set(target.id, ((await answer(real, request)).object as { metadata: { resourceVersion: string } }).metadata.resourceVersion);
    bases.memoryToken.set(target.id, version);
    bases.memory.set(target.id, (await memoryFuzz.transport.request<{ metadata: { resourceVersion: string } }>({ method: 'GET', path: `${target.collection}/${baseName(target)}` })).metadata.resourceVersion);
    return;
  }
}
for (const [i, target] of targets.entries()) await createBase(target, i);

/**
 * The API server's answer to a case. The fuzz run names its base object's resourceVersion as its
 * normalized token (`<rv:1>`), which the server refuses with a 500 before any validation; a
 * recording made with the server's own resourceVersion is used as such.
 */
async function realAndMemoryAnswers(fuzz: FuzzCase): Promise<[Answer, Answer]> {
  const id = fuzz.target.id;
  const rawVersion = (bases.real.get(id)?.metadata as Obj | undefined)?.resourceVersion as string | undefined;
  const raw = await answer(real, requestOf(fuzz, rawVersion));
  if (raw.code !== -1 || !bases.real.has(id)) return [raw, await answer(memoryFuzz.transport, requestOf(fuzz, bases.memory.get(id)))];
  return [await answer(real, requestOf(fuzz, bases.realToken.get(id))), await answer(memoryFuzz.transport, requestOf(fuzz, bases.memoryToken.get(id)))];
}

/** The object the API server validates for a case, after decoding the request and merging it into the base. */
function goRequest(fuzz: FuzzCase, base: Obj | undefined): { object: Obj; oldObject?: Obj } | undefined {
  const { target, object } = fuzz;
  if (fuzz.operation === 'create' || base === undefined) {
    return { object: { ...object, metadata: { name: `c${fuzz.index}`, ...(target.namespaced && { namespace: NAMESPACE }) } } };
  }
  if (fuzz.operation === 'update') return { object: { ...object, metadata: base.metadata }, oldObject: base };
  if (fuzz.operation === 'merge patch') {
    const { apiVersion: _apiVersion, kind: _kind, ...fields } = object;
    return { object: mergePatch(structuredClone(base), fields) as Obj, oldObject: base };
  }
  return undefined; // apply: structured-merge-diff is not in the prototype
}

const started = performance.now();
let goMs = 0;
for (let index = 0; index < COUNT; index++) {
  const fuzz = fuzzCase(SEED, index, targets);
  const [realSide, memorySide] = await realAndMemoryAnswers(fuzz);
  const crd = crdOf(fuzz.target.apiVersion, fuzz.target.kind)!;
  const input = goRequest(fuzz, bases.real.get(fuzz.target.id));
  let goSide: Answer | undefined;
  if (input) {
    const t = performance.now();
    const res = await go.call({ op: 'validateObject', id: idOf(crd), version: fuzz.target.apiVersion.split('/')[1], ...input });
    goMs += performance.now() - t;
    goSide = goAnswer(res, fuzz.query.fieldValidation !== 'Strict' ? undefined : fuzz.operation === 'merge patch' && bases.real.has(fuzz.target.id) ? 'patch' : 'decode');
  }
  const label = `fuzz ${fuzz.operation}`;
  count(label, goSide, realSide.code === -1 ? undefined : realSide, memorySide, `#${index} ${fuzz.area} ${fuzz.target.id} ${fuzz.site}: ${fuzz.what}`);
  count(`  area ${fuzz.area}`, goSide, realSide.code === -1 ? undefined : realSide, memorySide, `#${index}`);
}
memory.close();
memoryFuzz.close();

const cell = (t: Record<string, number>) => ['exact', 'verdict', 'differs', 'no recording'].filter((k) => t[k]).map((k) => `${t[k]} ${k}`).join(', ') || '-';
console.log(`bench/semantics/fidelity  (seed ${SEED}, ${COUNT} fuzz cases from ${recordingFile}; load ${load()})`);
console.log('exact: same verdict and same causes (refused) or same stored object less metadata (accepted); verdict: same accept/refuse only');
console.log('| input | n | not reachable | Go kernel vs kube-apiserver | Go kernel vs memory cluster | memory cluster vs kube-apiserver |');
console.log('|---|---|---|---|---|---|');
for (const [label, r] of rows) console.log(`| ${label} | ${r.n} | ${r.skipped} | ${cell(r.goReal)} | ${cell(r.goMemory)} | ${cell(r.memoryReal)} |`);
console.log(`\nGo kernel time on the fuzz cases: ${goMs.toFixed(0)} ms in all (${(performance.now() - started).toFixed(0)} ms for the loop with both other sides)`);
console.log(`\nFirst Go-vs-API-server differences:\n${examplesShown.map((l) => `  - ${l}`).join('\n')}`);
console.log(`load average at end: ${load()}`);
