import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { buildCrds } from '../../src/crd/build.js';
import type { ProjectConfig } from '../../src/project/model.js';

// The same API in Go (go/) and TypeScript (ts/): kubebuilder's marker layout, every form of
// controller-gen's default/example literals (:=, a;b, {…} lists, maps and lists of objects,
// {} for lists, maps and objects, +default= JSON), one-of and k8s:immutable rules, the
// standard apiVersion/kind texts, Go comment forms. expected/ is
// what controller-gen v0.21.0 wrote for the Go twin, kept so that this check needs no Go:
//   cd go && controller-gen crd paths=./api/... output:crd:dir=../expected
const twin = fileURLToPath(new URL('../fixtures/controller-gen/texts/', import.meta.url));
const project: ProjectConfig = { domain: 'kubebuilder.io', projectName: 'twin', multigroup: false, namespaced: false, resources: [], extra: {} };

function opgenCrds() {
  const dir = join(twin, 'ts/src/api/v1');
  const texts = new Map(readdirSync(dir).map((f) => [join('/p/src/api/v1', f), readFileSync(join(dir, f), 'utf8')]));
  const result = buildCrds('/p', texts, { project, generatorVersion: 'x' });
  expect(result.errors).toEqual([]);
  return result.crds;
}

describe('the same API in Go and TypeScript', () => {
  const crds = opgenCrds();
  it.each(readdirSync(join(twin, 'expected')))('%s: opgen writes the schema controller-gen v0.21 writes', (file) => {
    const expected = parse(readFileSync(join(twin, 'expected', file), 'utf8'));
    const ours = crds.find((c) => c.crd.metadata.name === expected.metadata.name)!.crd;
    expect(ours.spec.versions.map((v) => v.schema.openAPIV3Schema)).toEqual(expected.spec.versions.map((v: { schema: { openAPIV3Schema: unknown } }) => v.schema.openAPIV3Schema));
    expect(ours.spec.versions.map((v) => v.subresources ?? null)).toEqual(expected.spec.versions.map((v: { subresources?: unknown }) => v.subresources ?? null));
    expect(ours.spec.names).toEqual(expected.spec.names);
  });
});
