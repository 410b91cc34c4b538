import { describe, expect, it } from 'vitest';
import { type ParsedFiles, buildCrds, newWalkCache } from '../../src/crd/build.js';
import { formatUserError } from '../../src/errors.js';
import type { ProjectConfig } from '../../src/project/model.js';

// `--watch` keeps parsed and walked API files between builds. Whatever is edited, a build that
// reuses them must give exactly what a fresh build of the same texts gives.

const project: ProjectConfig = { domain: 'example.com', projectName: 'p', multigroup: false, namespaced: false, resources: [], extra: {} };
const info = "// +groupName=g.example.com\nexport const groupVersion = { group: 'g.example.com', version: 'v1' } as const;\n";
const kind = (name: string, body: string, head = '') =>
  `import type { ObjectMeta } from '@opgen/runtime/api';\n${head}/**\n * +kubebuilder:object:root=true\n */\nexport interface ${name} {\n  metadata?: ObjectMeta;\n  spec?: { ${body} };\n}\n`;

type Files = Record<string, string>;

function fresh(files: Files, maxDescriptionLength?: number) {
  return outcome(buildCrds('/p', texts(files), { project, generatorVersion: '1', maxDescriptionLength }));
}

function outcome(result: ReturnType<typeof buildCrds>) {
  return { crds: JSON.parse(JSON.stringify(result.crds.map((c) => c.crd))) as unknown, errors: result.errors.map(formatUserError) };
}

function texts(files: Files): Map<string, string> {
  return new Map(Object.entries(files).map(([p, t]) => [`/p/src/api/v1/${p}`, t]));
}

/** Builds each state in turn with one set of kept parses and walks, checking each against a fresh build. */
function expectSameAsFresh(...states: Files[]): void {
  expectSameAsFreshWith(undefined, ...states);
}

function expectSameAsFreshWith(maxDescriptionLength: number | undefined, ...states: Files[]): void {
  const parsed: ParsedFiles = new Map();
  const walks = newWalkCache();
  for (const files of states) {
    const kept = outcome(buildCrds('/p', texts(files), { project, generatorVersion: '1', parsed, walks, maxDescriptionLength }));
    expect(kept).toEqual(fresh(files, maxDescriptionLength));
  }
}

const base: Files = {
  'groupversion_info.ts': info,
  'a.ts': kind('Alpha', 'disk?: Disk;', "import type { Disk } from './shared.js';\n"),
  'b.ts': kind('Beta', 'size: string;'),
  'shared.ts': 'export interface Disk {\n  /** +kubebuilder:validation:MinLength=1 */\n  name?: string;\n}\n',
};

describe('builds that reuse earlier walks', () => {
  it('match a fresh build when the edited file is a Kind nothing imports', () => {
    expectSameAsFresh(base, { ...base, 'b.ts': kind('Beta', 'size?: string; count?: number;') }, base);
  });

  it('match a fresh build when a file a Kind imports changes', () => {
    const shared = 'export interface Disk {\n  name?: string;\n  /** +kubebuilder:validation:Enum=ssd;hdd */\n  class?: string;\n}\n';
    expectSameAsFresh(base, { ...base, 'shared.ts': shared }, base);
  });

  it('match a fresh build when an import that was missing appears, and when a file goes', () => {
    const { 'shared.ts': _, ...withoutShared } = base;
    expectSameAsFresh(withoutShared, base, withoutShared);
  });

  it('match a fresh build through an error and back, errors included', () => {
    const bad = { ...base, 'b.ts': kind('Beta', 'size?: string;\n  /** +kubebuilder:validation:Minimum=x */\n  n?: number;') };
    expectSameAsFresh(base, bad, bad, base);
    expect(fresh(bad).errors.length).toBeGreaterThan(0);
  });

  it('match a fresh build with --max-desc-len, which shortens the descriptions of reused schemas again', () => {
    const described = { ...base, 'b.ts': kind('Beta', '/** The size of the volume. It is given in GiB. */\n  size: string;') };
    for (const max of [0, 12]) expectSameAsFreshWith(max, described, { ...described, 'a.ts': `${base['a.ts']}\n` }, described);
  });

  it('match a fresh build when groupversion_info.ts changes', () => {
    const optional = `// +kubebuilder:validation:Optional\n${info}`;
    expectSameAsFresh(base, { ...base, 'groupversion_info.ts': optional }, base);
  });
});
