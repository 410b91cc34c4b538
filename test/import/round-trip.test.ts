import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import type { CustomResourceDefinition } from '../../src/crd/types.js';
import { corpusCrds } from '../corpus/corpus.js';
import { comparable, differences, roundTrip } from './round-trip.js';

// Each real CRD of the corpus, imported and built back by opgen manifests' CRD builder,
// must give back the original path by path; what does not is exactly the list of
// constructs the importer warns about, and that list is pinned in
// test/fixtures/import/unsupported.txt.

const crds = corpusCrds();
const expected = readFileSync(new URL('../fixtures/import/unsupported.txt', import.meta.url), 'utf8').trimEnd().split('\n');

const results = crds.map(({ project, file, doc }) => {
  const source = `${project}/${file}`;
  const crd = doc as unknown as CustomResourceDefinition;
  const trip = roundTrip(crd, source);
  return { source, crd, trip, diffs: trip.built ? differences(comparable(crd), comparable(trip.built)) : [] };
});

describe('opgen import crd round trip on the corpus', () => {
  it('covers at least fifteen CRDs, Gateway API and cert-manager among them', () => {
    expect(crds.length).toBeGreaterThanOrEqual(15);
    expect(crds.filter((c) => c.project === 'gateway-api').length).toBeGreaterThanOrEqual(8);
    expect(crds.filter((c) => c.project === 'cert-manager').length).toBeGreaterThanOrEqual(4);
  });

  it.each(results.map((r) => [r.source, r] as const))('%s builds back without errors, and differs only where it warned', (_, { trip, diffs }) => {
    expect(trip.errors).toEqual([]);
    const warned = trip.imported.problems.map((p) => p.path);
    // A difference is accounted for by a warning at its path, above it, or below it (a missing subresources object, warned at its status).
    const related = (a: string, b: string) => a === b || a.startsWith(`${b}.`) || a.startsWith(`${b}[`);
    const silent = diffs.filter((d) => !warned.some((w) => related(d, w) || related(w, d)));
    expect(silent).toEqual([]);
  });

  it('warns about exactly the expected constructs', () => {
    const warnings = results.flatMap(({ source, trip }) => trip.imported.problems.map((p) => `${source}: ${p.path}: ${p.message}`));
    expect(warnings).toEqual(expected);
  });

  it('writes types that type-check in strict mode against the runtime', () => {
    // Inside the repository (a git-ignored .opgen-tmp-* folder), so the files resolve @opgen/runtime/api.
    const dir = mkdtempSync(new URL('../../.opgen-tmp-import-', import.meta.url).pathname);
    try {
      const paths = new Set<string>();
      for (const { trip } of results) {
        for (const file of trip.imported.files.filter((f) => f.path.endsWith('.ts'))) {
          const path = join(dir, file.path);
          mkdirSync(dirname(path), { recursive: true });
          writeFileSync(path, file.content);
          paths.add(path);
        }
      }
      const program = ts.createProgram([...paths], {
        strict: true,
        noUncheckedIndexedAccess: true,
        noEmit: true,
        skipLibCheck: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        types: [],
      });
      expect(ts.getPreEmitDiagnostics(program).map((d) => `${d.file?.fileName}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('gives back every CEL rule and printer column of Gateway API', () => {
    const count = (crd: CustomResourceDefinition, key: string) => JSON.stringify(crd.spec.versions.filter((v) => v.served)).split(`"${key}"`).length - 1;
    const gateway = results.filter((r) => r.source.startsWith('gateway-api/'));
    const rules = gateway.reduce((n, r) => n + count(r.crd, 'rule'), 0);
    expect(rules).toBeGreaterThan(250);
    for (const { crd, trip } of gateway) {
      expect(count(trip.built!, 'rule')).toBe(count(crd, 'rule'));
      expect(count(trip.built!, 'jsonPath')).toBe(count(crd, 'jsonPath'));
    }
  });
});
