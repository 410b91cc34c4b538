import { describe, expect, it } from 'vitest';
import { buildCrds } from '../../src/crd/build.js';
import { formatUserError } from '../../src/errors.js';
import type { ProjectConfig, Resource } from '../../src/project/model.js';

const project = (resources: Partial<Resource>[] = []): ProjectConfig => ({
  domain: 'example.com',
  projectName: 'p',
  multigroup: false,
  namespaced: false,
  resources: resources.map((r) => ({ group: 'g', version: 'v1', kind: 'K', domain: 'example.com', plural: 'ks', controller: false, extra: {}, ...r })),
  extra: {},
});

const info = (version: string, extra = '') => `// +groupName=g.example.com\n${extra}export const groupVersion = { group: 'g.example.com', version: '${version}' } as const;\n`;
const imports = "import type { ObjectMeta, int32 } from '@opgen/runtime/api';\n";
const kind = (name: string, markers: string[] = [], body = 'spec?: { a?: string };') =>
  `/**\n * ${name} is a kind.\n${['+kubebuilder:object:root=true', ...markers].map((m) => ` * ${m}`).join('\n')}\n */\nexport interface ${name} {\n  metadata?: ObjectMeta;\n  ${body}\n}\n`;

function build(files: Record<string, string>, options: { resources?: Partial<Resource>[]; maxDescriptionLength?: number } = {}) {
  const texts = new Map(Object.entries(files).map(([p, t]) => [`/p/${p}`, t]));
  const result = buildCrds('/p', texts, { project: project(options.resources), generatorVersion: '1.2.3', maxDescriptionLength: options.maxDescriptionLength });
  return { crds: result.crds, errors: result.errors.map(formatUserError) };
}

describe('CRD assembly', () => {
  it('makes one CRD per group and kind, with versions sorted and the storage version marked', () => {
    const { crds, errors } = build({
      'src/api/v1/groupversion_info.ts': info('v1'),
      'src/api/v1/k.ts': imports + kind('Kind', ['+kubebuilder:storageversion']),
      'src/api/v1beta1/groupversion_info.ts': info('v1beta1'),
      'src/api/v1beta1/k.ts': imports + kind('Kind'),
    });
    expect(errors).toEqual([]);
    expect(crds).toHaveLength(1);
    const crd = crds[0]!.crd;
    expect(crd.metadata).toEqual({ name: 'kinds.g.example.com', annotations: { 'opgen.dev/version': '1.2.3' } });
    expect(crd.spec.names).toEqual({ kind: 'Kind', listKind: 'KindList', plural: 'kinds', singular: 'kind' });
    expect(crd.spec.versions.map((v) => [v.name, v.served, v.storage])).toEqual([
      ['v1', true, true],
      ['v1beta1', true, false],
    ]);
  });

  it('stops at a file TypeScript cannot parse instead of dropping what follows the mistake', () => {
    const { crds, errors } = build({
      'src/api/v1/groupversion_info.ts': info('v1'),
      'src/api/v1/k.ts': `${imports}${kind('Kind', [], 'spec: {\n    /** a glob such as *\u002f.yaml */\n    schedule: string;\n  };')}`,
    });
    expect(crds).toEqual([]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBe('src/api/v1/k.ts:9:26: error: Property or signature expected.');
  });

  it('reads multigroup layouts, one folder per group and version', () => {
    const { crds, errors } = build({
      'src/api/ships/v1/groupversion_info.ts': "// +groupName=ships.example.com\nexport const groupVersion = { group: 'ships.example.com', version: 'v1' } as const;\n",
      'src/api/ships/v1/frigate.ts': imports + kind('Frigate'),
      'src/api/sea/v1beta1/groupversion_info.ts': "// +groupName=sea.example.com\nexport const groupVersion = { group: 'sea.example.com', version: 'v1beta1' } as const;\n",
      'src/api/sea/v1beta1/frigate.ts': imports + kind('Frigate'),
    });
    expect(errors).toEqual([]);
    expect(crds.map((c) => `${c.crd.metadata.name} ${c.crd.spec.versions.map((v) => v.name).join()}`)).toEqual(['frigates.sea.example.com v1beta1', 'frigates.ships.example.com v1']);
  });

  it('requires exactly one storage version when a kind has several', () => {
    const files = {
      'src/api/v1/groupversion_info.ts': info('v1'),
      'src/api/v1/k.ts': imports + kind('Kind'),
      'src/api/v2/groupversion_info.ts': info('v2'),
      'src/api/v2/k.ts': imports + kind('Kind'),
    };
    expect(build(files).errors).toEqual([
      'src/api/v1/k.ts:6:18: error: Kind has versions v1, v2 but none is marked +kubebuilder:storageversion (mark exactly one version +kubebuilder:storageversion)',
    ]);
    files['src/api/v1/k.ts'] = imports + kind('Kind', ['+kubebuilder:storageversion']);
    files['src/api/v2/k.ts'] = imports + kind('Kind', ['+kubebuilder:storageversion']);
    expect(build(files).errors).toEqual([
      'src/api/v1/k.ts:5:4: error: Kind has 2 storage versions (v1, v2); exactly one is needed (mark exactly one version +kubebuilder:storageversion)',
    ]);
  });

  it("gives apiVersion and kind Kubernetes' standard descriptions, as controller-gen does, whatever the API file says", () => {
    const { crds } = build({
      'src/api/v1/groupversion_info.ts': info('v1'),
      'src/api/v1/k.ts': imports + kind('Kind', [], '/** Our own words. */\n  apiVersion?: string;\n  spec?: { a?: string };'),
    });
    const root = crds[0]!.crd.spec.versions[0]!.schema.openAPIV3Schema;
    expect(root.properties!.apiVersion).toEqual({
      type: 'string',
      description:
        'APIVersion defines the versioned schema of this representation of an object.\nServers should convert recognized schemas to the latest internal value, and\nmay reject unrecognized values.\nMore info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources',
    });
    expect(root.properties!.kind).toEqual({
      type: 'string',
      description:
        'Kind is a string value representing the REST resource this object represents.\nServers may infer this from the endpoint the client submits requests to.\nCannot be updated.\nIn CamelCase.\nMore info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds',
    });
    expect(root.properties!.metadata).toEqual({ type: 'object' });
  });

  it('rejects two kinds of one group with the same plural at the marker that chose it, naming the other kind', () => {
    // Mice comes first in the file, but its path= marker is what makes the plurals clash.
    const { errors } = build({
      'src/api/v1/groupversion_info.ts': info('v1'),
      'src/api/v1/a.ts': imports + kind('Mice', ['+kubebuilder:resource:path=mice']) + kind('Mouse'),
    });
    expect(errors).toEqual([
      'src/api/v1/a.ts:5:4: error: Mice has the plural mice in g.example.com, which Mouse (src/api/v1/a.ts:15) already has (set another plural with +kubebuilder:resource:path=<plural>)',
    ]);
  });

  it('rejects a clash of two chosen plurals at the later one', () => {
    const { errors } = build({
      'src/api/v1/groupversion_info.ts': info('v1'),
      'src/api/v1/a.ts': imports + kind('Alpha', ['+kubebuilder:resource:path=things']),
      'src/api/v1/b.ts': imports + kind('Beta', ['+kubebuilder:resource:path=things']),
    });
    expect(errors).toEqual([
      'src/api/v1/b.ts:5:4: error: Beta has the plural things in g.example.com, which Alpha (src/api/v1/a.ts:7) already has (set another plural with +kubebuilder:resource:path=<plural>)',
    ]);
  });

  it('rejects a kind named like the list kind of another kind of the group, at its declaration, in the API server\'s words', () => {
    // The API server takes both CRDs, accepts Widget's names, and never establishes WidgetList.
    const { errors } = build({
      'src/api/v1/groupversion_info.ts': info('v1'),
      'src/api/v1/widget.ts': imports + kind('Widget'),
      'src/api/v1/widgetlist.ts': imports + kind('WidgetList'),
    });
    expect(errors).toEqual([
      'src/api/v1/widgetlist.ts:6:18: error: WidgetList: "WidgetList" is already in use (KindConflict): WidgetList is the list kind of Widget (src/api/v1/widget.ts:6) in g.example.com; the API server would never establish the CRD (rename the kind)',
    ]);
  });

  it('rejects a short name that is another kind\'s plural, at its +kubebuilder:resource marker', () => {
    const { errors } = build({
      'src/api/v1/groupversion_info.ts': info('v1'),
      'src/api/v1/a.ts': imports + kind('Gadget'),
      'src/api/v1/b.ts': imports + kind('Gizmo', ['+kubebuilder:resource:shortName=gadgets']),
    });
    expect(errors).toEqual([
      'src/api/v1/b.ts:5:4: error: Gizmo: "gadgets" is already in use (ShortNamesConflict): gadgets is the plural of Gadget (src/api/v1/a.ts:6) in g.example.com; the API server would never establish the CRD (choose other names with +kubebuilder:resource)',
    ]);
  });

  it('rejects skipping the only version', () => {
    const { errors } = build({ 'src/api/v1/groupversion_info.ts': info('v1'), 'src/api/v1/k.ts': imports + kind('Kind', ['+kubebuilder:skipversion']) });
    expect(errors[0]).toContain('+kubebuilder:skipversion on the only version of Kind');
  });

  it('checks printer columns, scale paths and selectable fields against the schema', () => {
    const body = 'spec: { replicas: int32; name: string; tags?: string[] };\n  status?: { ready?: string };';
    const { errors } = build({
      'src/api/v1/groupversion_info.ts': info('v1'),
      'src/api/v1/k.ts':
        imports +
        kind('Kind', [
          '+kubebuilder:printcolumn:name=A,type=text,JSONPath=.spec.name',
          '+kubebuilder:subresource:scale:specpath=.spec.replicas,statuspath=.status.ready',
          '+kubebuilder:selectablefield:JSONPath=.spec.tags',
          '+kubebuilder:selectablefield:JSONPath=.spec.nope',
        ], body),
    });
    expect(errors.map((e) => e.split(': error: ')[1])).toEqual([
      '+kubebuilder:printcolumn:name=A,type=text,JSONPath=.spec.name: column type text is not one of integer, number, string, boolean, date',
      '+kubebuilder:subresource:scale:specpath=.spec.replicas,statuspath=.status.ready: statuspath .status.ready must be an integer',
      '+kubebuilder:selectablefield:JSONPath=.spec.tags: .spec.tags must be a string, integer or boolean field',
      '+kubebuilder:selectablefield:JSONPath=.spec.nope: .spec.nope is not a field of Kind',
    ]);
  });

  it('leaves empty printcolumn arguments out, as controller-gen (description="", format="", priority=0)', () => {
    const { crds, errors } = build({
      'src/api/v1/groupversion_info.ts': info('v1'),
      'src/api/v1/k.ts': imports + kind('Kind', ['+kubebuilder:printcolumn:name="A",type=string,JSONPath=`.spec.a`,description="",format="",priority=0']),
    });
    expect(errors).toEqual([]);
    expect(crds[0]!.crd.spec.versions[0]!.additionalPrinterColumns).toEqual([{ name: 'A', type: 'string', jsonPath: '.spec.a' }]);
  });

  it('sets scope, short names, categories and CRD metadata from markers', () => {
    const { crds, errors } = build({
      'src/api/v1/groupversion_info.ts': info('v1'),
      'src/api/v1/k.ts': imports + kind('Kind', ['+kubebuilder:resource:scope=Cluster,shortName=kd,categories=all', '+kubebuilder:metadata:labels=team=a']),
    });
    expect(errors).toEqual([]);
    expect(crds[0]!.crd.spec.scope).toBe('Cluster');
    expect(crds[0]!.crd.spec.names).toMatchObject({ shortNames: ['kd'], categories: ['all'] });
    expect(crds[0]!.crd.metadata.labels).toEqual({ team: 'a' });
  });

  it('takes the scope from PROJECT when no marker says it, and checks the plural PROJECT records', () => {
    const files = { 'src/api/v1/groupversion_info.ts': info('v1'), 'src/api/v1/k.ts': imports + kind('K') };
    expect(build(files, { resources: [{ api: { crdVersion: 'v1', namespaced: false } }] }).crds[0]!.crd.spec.scope).toBe('Cluster');
    expect(build(files, { resources: [{ plural: 'kays' }] }).errors[0]).toContain('PROJECT lists K with plural kays, but its CRD\'s plural is ks');
  });

  it('checks the run-time handles against the CRD', () => {
    const { errors } = build({
      'src/api/v1/groupversion_info.ts': "// +groupName=g.example.com\nexport const groupVersion = { group: 'g.example.org', version: 'v1' } as const;\n",
      'src/api/v1/k.ts': `${imports}import { defineKind } from '@opgen/runtime/api';\n${kind('Kind')}export const Kind = defineKind<Kind>({ group: 'g.example.com', version: 'v1', kind: 'Kind', plural: 'kind', namespaced: false });\n`,
    });
    expect(errors.map((e) => e.split(': error: ')[1])).toEqual([
      'groupVersion says group: "g.example.org", but the CRD has "g.example.com" (change it to "g.example.com")',
      'defineKind for Kind says plural: "kind", but the CRD has "kinds" (change it to "kinds")',
      'defineKind for Kind says namespaced: false, but the CRD has true (change it to true)',
    ]);
  });

  it('reports problems of version folders and kinds with their place', () => {
    const { errors } = build({
      'src/api/v1/groupversion_info.ts': 'export const groupVersion = {};\n',
      'src/api/v2/groupversion_info.ts': info('v2', '// +kubebuilder:validation:Minimum=1\n'),
      'src/api/v2/k.ts': `${imports}/** +kubebuilder:object:root=true */\nexport interface NoMeta { spec?: string }\n/** +kubebuilder:object:root=true */\nexport interface BadMeta { metadata?: { name: string } }\n`,
      'src/api/shared/k.ts': imports + kind('Stray'),
      'src/api/v2/alias.ts': `${imports}/** +kubebuilder:object:root=true */\nexport type Alias = { metadata?: ObjectMeta };\n`,
    });
    expect(errors).toEqual([
      'src/api/shared/k.ts:6:18: error: Kind Stray is outside a version folder (move it next to a groupversion_info.ts (in src/api/shared there is none))',
      'src/api/v1/groupversion_info.ts:1:1: error: src/api/v1/groupversion_info.ts has no +groupName marker (add a comment line: +groupName=<group>.<domain>)',
      'src/api/v2/alias.ts:3:13: error: Kind Alias must be an interface (write it as export interface Alias { metadata?: ObjectMeta; … })',
      'src/api/v2/groupversion_info.ts:2:4: error: +kubebuilder:validation:Minimum=1 has no meaning at file level (put it above the declaration it is about)',
      'src/api/v2/k.ts:3:1: error: Kind NoMeta has no metadata property (add metadata?: ObjectMeta (from @opgen/runtime/api))',
      "src/api/v2/k.ts:5:28: error: metadata of BadMeta must be ObjectMeta (import { ObjectMeta } from '@opgen/runtime/api')",
    ]);
  });

  it('places the API server rules a schema breaks at the field that breaks them', () => {
    const { errors } = build({
      'src/api/v1/groupversion_info.ts': info('v1'),
      'src/api/v1/k.ts': imports + kind('Kind', [], 'spec?: {\n    /** +kubebuilder:validation:Schemaless */\n    free?: unknown;\n  };'),
    });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^src\/api\/v1\/k\.ts:10:5: error: Kind v1: spec\.free: .* \(the API server would reject this CRD\)$/);
  });

  it('shortens descriptions at a sentence end with --max-desc-len, and drops them with 0', () => {
    const files = {
      'src/api/v1/groupversion_info.ts': info('v1'),
      'src/api/v1/k.ts': imports + kind('Kind', [], '/** First sentence here. Second sentence is longer. */\n  spec?: string;'),
    };
    const spec = (n: number) => build(files, { maxDescriptionLength: n }).crds[0]!.crd.spec.versions[0]!.schema.openAPIV3Schema.properties!.spec!;
    expect(spec(30).description).toBe('First sentence here.');
    expect(spec(0).description).toBeUndefined();
  });

  it('skips a folder marked +kubebuilder:skip, and flips requiredness with a file-level Optional', () => {
    const skipped = build({ 'src/api/v1/groupversion_info.ts': info('v1', '// +kubebuilder:skip\n'), 'src/api/v1/k.ts': imports + kind('Kind') });
    expect(skipped.crds).toEqual([]);
    const optional = build({
      'src/api/v1/groupversion_info.ts': info('v1', '// +kubebuilder:validation:Optional\n'),
      'src/api/v1/k.ts': imports + kind('Kind', [], 'spec: {\n    a: string;\n    /** +required */\n    b: string;\n  };'),
    });
    const schema = optional.crds[0]!.crd.spec.versions[0]!.schema.openAPIV3Schema;
    expect(schema.required).toBeUndefined();
    expect(schema.properties!.spec!.required).toEqual(['b']);
  });
});
