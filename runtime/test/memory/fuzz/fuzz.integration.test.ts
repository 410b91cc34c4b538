/**
 * Schema-driven fuzzing (issue #36, item 3): objects generated from the corpus CRDs' schemas
 * (test/fixtures/corpus), valid and mutated by area (bounds, enums, patterns, formats, CEL,
 * list maps, unknown fields, types, int-or-string, embedded resources, transition rules),
 * each created, updated, merge-patched or applied (dry run, over a real base object for the
 * last three) on kube-apiserver 1.36.3 and on the memory cluster. The code, reason, causes
 * as a set and the stored object must agree; a disagreement fails with its seed, index and
 * the line that reruns it alone.
 *
 * FUZZ_SEED (default below), FUZZ_COUNT (cases, default 20,000), FUZZ_ONLY (one case's
 * index: prints both answers), FUZZ_CONCURRENCY (requests in flight). `DIFF_STATUS=1`
 * writes the agreement per area into the differential suite's STATUS.md.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTransport, type Transport } from '../../../src/rest/transport.js';
import { createMemoryCluster, startControlPlane, type ControlPlane, type MemoryCluster } from '../../../src/testing/index.js';
import { corpusCrds } from '../../../../test/corpus/corpus.js';
import { installCrds } from '../differential/real-side.js';
import { FUZZ_HEADING, replaceSection } from '../differential/status.js';
import { answer, reproduction, requestOf, type Answer } from './answer.js';
import { NAMESPACE, OPERATIONS, baseName, baseObject, fuzzCase, targetsOf, type FuzzCase, type Operation, type Target } from './cases.js';
import { KNOWN_FUZZ_DIFFERENCES } from './known.js';
import { KNOWN_GAPS } from '../differential/gaps.js';
import { AREAS, type FuzzArea } from './mutate.js';
import { random } from './prng.js';
import { recordingTransport, replayTransport, type Recording } from './recording.js';
import { singleTryTransport } from './single-try.js';

const SEED = Number(process.env.FUZZ_SEED ?? 36);
const COUNT = Number(process.env.FUZZ_COUNT ?? 20_000);
const ONLY = process.env.FUZZ_ONLY === undefined ? undefined : Number(process.env.FUZZ_ONLY);
const CONCURRENCY = Number(process.env.FUZZ_CONCURRENCY ?? 32);
/** Milliseconds each side spent answering, summed over the workers: where a slow run's time went. */
const SPENT = { memory: 0, real: 0 };
const REPLAY = process.env.FUZZ_REPLAY;
const RECORD = process.env.FUZZ_RECORD;
const recorded: Recording = {};
const STATUS = new URL('../differential/STATUS.md', import.meta.url);

const crds = corpusCrds().map(({ doc }) => doc);
const targets = targetsOf(crds);

interface Tally {
  cases: number;
  agree: number;
  /** Agreed only once a known difference (known.ts) was masked. */
  known: number;
  /** The real API server accepted the write. */
  accepted: number;
}

interface Disagreement {
  fuzz: FuzzCase;
  real: Answer;
  memory: Answer;
}

/** The base objects' resourceVersions on each side, by target id (absent: no base). */
interface Bases {
  real: Map<string, string>;
  memory: Map<string, string>;
}

describe('schema-driven fuzzing against kube-apiserver 1.36.3', () => {
  let controlPlane: ControlPlane | undefined;
  let real: Transport;
  let memory: MemoryCluster;
  const bases: Bases = { real: new Map(), memory: new Map() };
  const baseDisagreements: Disagreement[] = [];

  beforeAll(async () => {
    memory = await createMemoryCluster({ crds });
    if (REPLAY) {
      // Working on the memory cluster: the real side's answers from an earlier run (FUZZ_RECORD).
      real = replayTransport(JSON.parse(readFileSync(REPLAY, 'utf8')) as Recording);
    } else {
      controlPlane = await startControlPlane();
      real = singleTryTransport(controlPlane.kubeConfig, createTransport(controlPlane.kubeConfig));
      if (RECORD) real = recordingTransport(real, recorded);
      await installCrds(real, crds);
    }
    for (const transport of [real, memory.transport]) {
      await transport.request({ method: 'POST', path: '/api/v1/namespaces', body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMESPACE } } });
    }
    await Promise.all(targets.map((target, i) => createBase(target, i)));
  }, 600_000);

  afterAll(async () => {
    memory?.close();
    await controlPlane?.stop();
    if (RECORD) writeFileSync(RECORD, JSON.stringify(recorded));
  });

  /** The first of a few generated objects the real API server accepts, created on both sides. */
  async function createBase(target: Target, targetIndex: number): Promise<void> {
    for (let attempt = 0; attempt < 12; attempt++) {
      const body = { ...baseObject(target, random(SEED * 7919 + targetIndex * 131 + attempt)), metadata: { name: baseName(target) } };
      const request = { method: 'POST' as const, path: target.collection, body };
      const onReal = await answer(real, request);
      if (onReal.code !== '2xx') continue;
      const onMemory = await answer(memory.transport, request);
      if (!isDeepStrictEqual(onReal, onMemory)) {
        const fuzz: FuzzCase = { index: -1, target, area: 'valid', operation: 'create', site: '', what: `base object, attempt ${attempt}`, object: body, query: {} };
        baseDisagreements.push({ fuzz, real: onReal, memory: onMemory });
        return;
      }
      // The server's own resourceVersion: an answer's is normalized to a token (`<rv:1>`), which
      // an update naming it is refused for with a 500 before any validation.
      bases.real.set(target.id, await storedVersion(real, target));
      bases.memory.set(target.id, await storedVersion(memory.transport, target));
      return;
    }
  }

  async function storedVersion(transport: Transport, target: Target): Promise<string> {
    const stored = await transport.request<{ metadata: { resourceVersion: string } }>({ method: 'GET', path: `${target.collection}/${baseName(target)}` });
    return stored.metadata.resourceVersion;
  }

  it('names a known gap of the differential suite for each known difference that has a scenario', () => {
    const missing = KNOWN_FUZZ_DIFFERENCES.filter((known) => known.scenario !== undefined && !KNOWN_GAPS.some((gap) => gap.scenario === known.scenario));
    expect(missing.map((known) => known.id)).toEqual([]);
  });

  it(ONLY === undefined ? `agrees on ${COUNT} generated objects (seed ${SEED})` : `case ${ONLY} of seed ${SEED}`, async () => {
    const tallies = new Map<FuzzArea, Tally>(AREAS.map((area) => [area, { cases: 0, agree: 0, known: 0, accepted: 0 }]));
    const disagreements: Disagreement[] = [...baseDisagreements];
    const knownCounts = new Map<string, number>();
    const acceptedBy = new Map<Operation, number>();
    const indexes = ONLY === undefined ? Array.from({ length: COUNT }, (_, i) => i) : [ONLY];
    const started = performance.now();
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < indexes.length) {
        const fuzz = fuzzCase(SEED, indexes[next++]!, targets);
        const t0 = performance.now();
        const onMemory = await answer(memory.transport, requestOf(fuzz, bases.memory.get(fuzz.target.id)));
        const t1 = performance.now();
        const realRequest = requestOf(fuzz, bases.real.get(fuzz.target.id));
        const onReal = await answer(real, realRequest);
        SPENT.memory += t1 - t0;
        SPENT.real += performance.now() - t1;
        if (ONLY !== undefined) console.log(JSON.stringify({ case: fuzz, real: onReal, memory: onMemory }, null, 1));
        const tally = tallies.get(fuzz.area)!;
        tally.cases += 1;
        if (onReal.code === '2xx') {
          tally.accepted += 1;
          // A case whose target has no base object is sent as a create, whatever its operation.
          const operation = realRequest.method === 'POST' ? 'create' : fuzz.operation;
          acceptedBy.set(operation, (acceptedBy.get(operation) ?? 0) + 1);
        }
        if (isDeepStrictEqual(onReal, onMemory)) {
          tally.agree += 1;
          continue;
        }
        const known = KNOWN_FUZZ_DIFFERENCES.find((difference) => difference.matches(fuzz, onReal, onMemory));
        if (known) {
          tally.known += 1;
          knownCounts.set(known.id, (knownCounts.get(known.id) ?? 0) + 1);
        }
        else disagreements.push({ fuzz, real: onReal, memory: onMemory });
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, indexes.length) }, worker));
    const seconds = (performance.now() - started) / 1000;
    console.log(`fuzz: ${indexes.length} cases in ${seconds.toFixed(1)} s over ${targets.length} CRD versions, ${bases.real.size} bases; seed ${SEED}`);
    console.log(table(tallies));
    console.log(`fuzz: answering took ${Math.round(SPENT.memory)} ms on the memory cluster, ${Math.round(SPENT.real)} ms on the API server (summed over ${CONCURRENCY} workers)`);
    if (process.env.DIFF_STATUS === '1' && ONLY === undefined) writeFileSync(STATUS, replaceSection(readFileSync(STATUS, 'utf8'), FUZZ_HEADING, statusSection(tallies, indexes.length, disagreements.length, knownCounts)));

    if (process.env.FUZZ_DUMP) writeFileSync(process.env.FUZZ_DUMP, JSON.stringify(disagreements.map(({ fuzz, real, memory }) => ({ ...fuzz, target: fuzz.target.id, real, memory })), null, 1));
    const shown = disagreements.slice(0, 8).map(describeDisagreement).join('\n');
    expect(disagreements.length, `${disagreements.length} disagreements (seed ${SEED}); the first:\n${shown}`).toBe(0);
    if (ONLY === undefined) {
      // A run that exercised nothing must not pass: every area ran, and both answers occurred.
      for (const [area, tally] of tallies) expect(tally.cases, `no case of area ${area}`).toBeGreaterThan(0);
      const all = [...tallies.values()];
      expect(all.reduce((sum, t) => sum + t.accepted, 0)).toBeGreaterThan(0);
      expect(all.reduce((sum, t) => sum + t.cases - t.accepted, 0)).toBeGreaterThan(0);
      // An operation the API server never accepts was refused before validation (an update naming
      // a resourceVersion the server cannot parse): its cases would compare nothing.
      for (const operation of OPERATIONS) expect(acceptedBy.get(operation) ?? 0, `no ${operation} accepted by the API server`).toBeGreaterThan(0);
    }
  }, 900_000);
});

function describeDisagreement({ fuzz, real, memory }: Disagreement): string {
  const line = (answer: Answer) => JSON.stringify(answer).slice(0, 600);
  return [
    `#${fuzz.index} ${fuzz.area} ${fuzz.operation} ${fuzz.target.id} at ${fuzz.site || '(root)'}: ${fuzz.what}`,
    `  API server:     ${line(real)}`,
    `  memory cluster: ${line(memory)}`,
    `  rerun: ${reproduction(SEED, fuzz.index)}`,
  ].join('\n');
}

function table(tallies: Map<FuzzArea, Tally>): string {
  const rows = [...tallies].map(([area, t]) => `| ${area} | ${t.cases} | ${t.accepted} | ${t.agree} | ${t.known} | ${t.cases - t.agree - t.known} |`);
  return ['| area | cases | accepted by the API server | agree | agree but for a known difference | differ |', '|---|---|---|---|---|---|', ...rows].join('\n');
}

function statusSection(tallies: Map<FuzzArea, Tally>, count: number, differ: number, knownCounts: Map<string, number>): string {
  const cell = (text: string): string => text.replaceAll('|', '\\|');
  const known = KNOWN_FUZZ_DIFFERENCES.map((k) => `| ${k.id} | ${knownCounts.get(k.id) ?? 0} | ${cell(k.scenario ?? '(not yet a scenario)')} | ${cell(k.note)} |`);
  return [
    FUZZ_HEADING,
    '',
    `Written by \`DIFF_STATUS=1 npx vitest run --project suite runtime/test/memory/fuzz\`: ${count} cases of seed ${SEED} ` +
      `over ${targets.length} served versions of the corpus' CRDs (test/fixtures/corpus), each a dry-run create, update, merge patch or apply ` +
      `(the last three over a real base object); ${differ} differ. Known differences: runtime/test/memory/fuzz/known.ts.`,
    '',
    table(tallies),
    '',
    'Known differences (runtime/test/memory/fuzz/known.ts), each named and explained; its cases count under "known" above, never as agreement:',
    '',
    '| known difference | cases | scenario (gaps.ts) | what differs |',
    '|---|---|---|---|',
    ...known,
    '',
  ].join('\n');
}
