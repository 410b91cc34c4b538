import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryCluster, type MemoryCluster } from '../../../src/testing/index.js';
import { differentialCrds } from './crds.js';
import { DIFFERENCES } from './differences.js';
import { firstDifference } from './first-difference.js';
import { KNOWN_GAPS } from './gaps.js';
import { normalize } from './normalize.js';
import { runRealSide, type RealSide } from './real-side.js';
import { MEMORY_PATIENCE, createNamespace, runScenario, type Outcome } from './run.js';
import { AREAS } from './scenarios/index.js';
import { FUZZ_HEADING, renderStatus, sectionOf, type Result } from './status.js';

/**
 * The differential suite (issue #25's proof): every scenario runs against the real
 * kube-apiserver 1.36.3 (with kube-controller-manager) and against the memory cluster, and
 * the normalized recordings must be equal, except the deliberate differences (differences.ts,
 * explained in docs/memory-cluster-differences.md) and the known gaps (gaps.ts, expected to
 * fail, listed in STATUS.md). `DIFF_STATUS=1` rewrites STATUS.md from this run's results;
 * `DIFF_REAL_RECORDING=<file>` replays such a dump instead of starting a control plane (to work
 * on the memory cluster in seconds; the recording must come from the same scenarios).
 * `DIFF_DUMP=<file>` writes the real side's normalized recordings there (and the memory
 * side's to `<file>.memory.json`).
 */

const DOC = new URL('../../../../docs/memory-cluster-differences.md', import.meta.url);
const STATUS = new URL('./STATUS.md', import.meta.url);

const entries = AREAS.flatMap((area) => area.scenarios.map((scenario) => ({ area, scenario })));
const named = entries.map((entry, index) => ({ ...entry, namespace: `diff-${String(index + 1).padStart(3, '0')}` }));
const crds = differentialCrds();

const results: Result[] = [];
/** The memory side's normalized recordings, for DIFF_DUMP. */
const memoryDump: Record<string, Outcome[]> = {};

describe('the memory cluster answers like kube-apiserver 1.36.3', () => {
  let real: RealSide | undefined;
  let memory: MemoryCluster | undefined;
  let memoryError: Error | undefined;

  beforeAll(async () => {
    const recording = process.env.DIFF_REAL_RECORDING;
    real = recording ? replayRealSide(recording) : await runRealSide(named, crds);
    const { startMs, crdsMs, scenariosMs } = real.timings;
    console.log(
      `differential: real side ${named.length} scenarios in ${Math.round(scenariosMs)} ms ` +
        `(control plane start ${Math.round(startMs)} ms, CRDs ${Math.round(crdsMs)} ms)`,
    );
    // For writing scenarios: what the real API server answered, normalized.
    if (process.env.DIFF_DUMP) {
      const dump = Object.fromEntries([...real.outcomes].map(([name, outcome]) => [name, outcome instanceof Error ? outcome.message : normalize(outcome)]));
      writeFileSync(process.env.DIFF_DUMP, JSON.stringify(dump, null, 1));
    }
    try {
      memory = await createMemoryCluster({ crds });
    } catch (error) {
      memoryError = error as Error;
    }
  }, 900_000);

  afterAll(async () => {
    memory?.close();
    await real?.controlPlane?.stop();
    if (process.env.DIFF_DUMP) writeFileSync(`${process.env.DIFF_DUMP}.memory.json`, JSON.stringify(memoryDump, null, 1));
    if (process.env.DIFF_STATUS === '1') {
      // The fuzz run's table (its own part, written by runtime/test/memory/fuzz) stays.
      const fuzz = sectionOf(readFileSync(STATUS, 'utf8'), FUZZ_HEADING);
      writeFileSync(STATUS, fuzz ? `${renderStatus(results, AREAS)}\n${fuzz}` : renderStatus(results, AREAS));
    }
  });

  it('lists each scenario once, and only existing scenarios as gaps and differences', () => {
    const names = entries.map(({ scenario }) => scenario.name);
    expect(names.filter((name, index) => names.indexOf(name) !== index)).toEqual([]);
    const listed = [...KNOWN_GAPS.map((gap) => gap.scenario), ...DIFFERENCES.flatMap((difference) => difference.scenarios)];
    expect(listed.filter((name) => !names.includes(name))).toEqual([]);
    expect(KNOWN_GAPS.filter((gap) => DIFFERENCES.some((d) => d.scenarios.includes(gap.scenario)))).toEqual([]);
  });

  it('explains every deliberate difference in the docs, and lists every one the docs explain', () => {
    const headings = [...readFileSync(DOC, 'utf8').matchAll(/^## (\S+)/gm)].map((match) => match[1]);
    expect(headings.sort()).toEqual(DIFFERENCES.map((difference) => difference.id).sort());
  });

  for (const { area, scenario, namespace } of named) {
    const gap = KNOWN_GAPS.find((known) => known.scenario === scenario.name);
    const difference = DIFFERENCES.find((listed) => listed.scenarios.includes(scenario.name));
    const title = `${area.area}: ${scenario.name}${gap ? ` [known gap, ${gap.owner}: ${gap.note}]` : ''}`;
    const test = gap ? it.fails : it;
    test(title, async () => {
      const result: Result = { area: area.area, owner: gap?.owner ?? area.owner, scenario: scenario.name, passed: false, gap: gap !== undefined };
      results.push(result);
      const recorded = real?.outcomes.get(scenario.name);
      if (!recorded) throw new Error('the real side did not run (see the beforeAll error)');
      if (recorded instanceof Error) throw new Error(`the scenario could not run on the real API server: ${recorded.message}`);
      expectSound(recorded);
      if (!memory) throw new Error(`no memory cluster: ${memoryError?.message}`);
      const own = scenario.memoryCluster ? await createMemoryCluster({ crds, ...scenario.memoryCluster }) : undefined;
      const cluster = own ?? memory;
      let ours: Outcome[];
      try {
        if (!scenario.noNamespace) await createNamespace(cluster.transport, namespace);
        ours = normalize(await runScenario(cluster.transport, scenario, namespace, MEMORY_PATIENCE));
      } finally {
        own?.close();
      }
      const theirs = normalize(recorded);
      memoryDump[scenario.name] = ours;
      result.difference = firstDifference(theirs, ours);
      if (difference) {
        expect(ours, `the deliberate difference ${difference.id} no longer shows`).not.toEqual(theirs);
        expect(difference.mask(ours)).toEqual(difference.mask(theirs));
      } else {
        expect(ours).toEqual(theirs);
      }
      result.passed = true;
    });
  }
});

/**
 * For working on the memory cluster without a control plane: the real side's recordings
 * as an earlier run wrote them with DIFF_DUMP (normalized, which normalizing again keeps).
 * Never the suite's own mode: a recording goes stale when a scenario changes.
 */
function replayRealSide(file: string): RealSide {
  const recorded = JSON.parse(readFileSync(file, 'utf8')) as Record<string, Outcome[] | string>;
  const outcomes = new Map<string, Outcome[] | Error>();
  for (const { scenario } of named) {
    const outcome = recorded[scenario.name];
    outcomes.set(scenario.name, outcome === undefined ? new Error(`not in the recording ${file}`) : typeof outcome === 'string' ? new Error(outcome) : outcome);
  }
  return { controlPlane: undefined, outcomes, timings: { startMs: 0, crdsMs: 0, scenariosMs: 0 } };
}

/** A scenario whose real run timed out or errored is a wrong scenario, not a difference. */
function expectSound(outcomes: Outcome[]): void {
  const broken = outcomes.filter((outcome) => outcome.error !== undefined || outcome.settled === false);
  expect(broken, 'the real API server did not do what the scenario waits for').toEqual([]);
}
