import { describe, expect, it } from 'vitest';
import { buildCrds } from '../../src/crd/build.js';
import { formatUserError } from '../../src/errors.js';
import type { ProjectConfig } from '../../src/project/model.js';

const project: ProjectConfig = { domain: 'tutorial.kubebuilder.io', projectName: 'p', multigroup: false, namespaced: false, resources: [], extra: {} };
const info = "// +groupName=batch.tutorial.kubebuilder.io\nexport const groupVersion = { group: 'batch.tutorial.kubebuilder.io', version: 'v1' } as const;\n";

function build(types: string) {
  const texts = new Map([
    ['/p/src/api/v1/groupversion_info.ts', info],
    ['/p/src/api/v1/cronjob_types.ts', types],
  ]);
  const result = buildCrds('/p', texts, { project, generatorVersion: '1.2.3' });
  return { crds: result.crds, errors: result.errors.map(formatUserError) };
}

// Laid out as kubebuilder's scaffold and the CronJob tutorial lay out their Go types:
// root markers, a blank line, the doc comment; field markers also one blank line above.
const cronJob = `import type { ObjectMeta, int32, Time } from '@opgen/runtime/api';

// EDIT THIS FILE!  THIS IS SCAFFOLDING FOR YOU TO OWN!
// NOTE: any new fields you add must be JSON-serialisable.

// CronJobSpec defines the desired state of CronJob.
export interface CronJobSpec {
  // +kubebuilder:validation:MinLength=0

  // The schedule in Cron format, see https://en.wikipedia.org/wiki/Cron.
  schedule: string;

  // +kubebuilder:validation:Minimum=0

  // Optional deadline in seconds for starting the job if it misses scheduled
  // time for any reason.  Missed jobs executions will be counted as failed ones.
  // +optional
  startingDeadlineSeconds?: int32;

  // +kubebuilder:default:=Allow
  // Specifies how to treat concurrent executions of a Job.
  // +optional
  concurrencyPolicy?: 'Allow' | 'Forbid' | 'Replace';
}

// CronJobStatus defines the observed state of CronJob.
export interface CronJobStatus {
  // Information when was the last time the job was successfully scheduled.
  // +optional
  lastScheduleTime?: Time;
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status

// CronJob is the Schema for the cronjobs API.
export interface CronJob {
  metadata?: ObjectMeta;
  spec?: CronJobSpec;
  status?: CronJobStatus;
}

// +kubebuilder:object:root=true

// CronJobList contains a list of CronJob.
export interface CronJobList {
  metadata?: ObjectMeta;
  items: CronJob[];
}
`;

describe('marker placement, as controller-gen reads it', () => {
  it('takes the group one blank line above the doc comment: root markers and field markers of the tutorial layout', () => {
    const { crds, errors } = build(cronJob);
    expect(errors).toEqual([]);
    expect(crds.map((c) => c.kind)).toEqual(['CronJob']);
    const version = crds[0]!.crd.spec.versions[0]!;
    expect(version.subresources).toEqual({ status: {} });
    const root = version.schema.openAPIV3Schema;
    expect(root.description).toBe('CronJob is the Schema for the cronjobs API.');
    const spec = root.properties!.spec!;
    // The scaffold's "EDIT THIS FILE" group is the detached group of CronJobSpec: markers only, no text.
    expect(spec.description).toBe('CronJobSpec defines the desired state of CronJob.');
    expect(spec.properties!.schedule).toMatchObject({ type: 'string', minLength: 0, description: 'The schedule in Cron format, see https://en.wikipedia.org/wiki/Cron.' });
    expect(spec.properties!.startingDeadlineSeconds).toMatchObject({ type: 'integer', minimum: 0 });
    expect(spec.properties!.concurrencyPolicy).toMatchObject({ default: 'Allow', enum: ['Allow', 'Forbid', 'Replace'] });
    expect(spec.required).toEqual(['schedule']);
  });

  it("reads kubebuilder's scaffold layout: prose groups two blank lines up are free text, field markers in the doc comment", () => {
    const scaffold = `import type { Condition, ObjectMeta } from '@opgen/runtime/api';

// FooSpec defines the desired state of Foo
export interface FooSpec {
  // INSERT ADDITIONAL SPEC FIELDS - desired state of cluster
  // Important: Run "make" to regenerate code after modifying this file
  // The following markers will use OpenAPI v3 schema to validate the value
  // More info: https://book.kubebuilder.io/reference/markers/crd-validation.html

  // foo is an example field of Foo. Edit foo_types.go to remove/update
  // +optional
  foo?: string;
}

// FooStatus defines the observed state of Foo.
export interface FooStatus {
  // INSERT ADDITIONAL STATUS FIELD - define observed state of cluster
  // Important: Run "make" to regenerate code after modifying this file

  // For Kubernetes API conventions, see:
  // https://github.com/kubernetes/community/blob/master/contributors/devel/sig-architecture/api-conventions.md#typical-status-properties

  // conditions represent the current state of the Foo resource.
  // +listType=map
  // +listMapKey=type
  // +optional
  conditions?: Condition[];
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status

// Foo is the Schema for the foos API
export interface Foo {
  // metadata is a standard object metadata
  // +optional
  metadata?: ObjectMeta;

  // spec defines the desired state of Foo
  // +required
  spec: FooSpec;

  // status defines the observed state of Foo
  // +optional
  status?: FooStatus;
}

// +kubebuilder:object:root=true

// FooList contains a list of Foo
export interface FooList {
  metadata?: ObjectMeta;
  items: Foo[];
}
`;
    const { crds, errors } = build(scaffold.replace(/Foo/g, 'CronJob').replace(/foo_types/g, 'cronjob_types'));
    expect(errors).toEqual([]);
    const version = crds[0]!.crd.spec.versions[0]!;
    expect(version.subresources).toEqual({ status: {} });
    const root = version.schema.openAPIV3Schema;
    expect(root.required).toEqual(['spec']);
    expect(root.properties!.spec!.properties!.foo!.description).toBe('foo is an example field of CronJob. Edit cronjob_types.go to remove/update');
    expect(root.properties!.status!.properties!.conditions).toMatchObject({
      description: 'conditions represent the current state of the CronJob resource.',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['type'],
    });
  });

  it('checks the markers of the detached group like any other: a misspelt one there is an error', () => {
    const { crds, errors } = build(cronJob.replace('// +kubebuilder:subresource:status', '// +kubebuilder:subresource:stauts'));
    expect(crds).toEqual([]);
    expect(errors).toEqual([expect.stringMatching(/^src\/api\/v1\/cronjob_types\.ts:34:4: error: unknown marker \+kubebuilder:subresource:stauts/)]);
  });

  it('reports every marker no declaration takes, at its line and column, and writes nothing', () => {
    const stray = cronJob
      // two blank lines away from the doc comment
      .replace('// +kubebuilder:validation:Minimum=0\n\n', '// +kubebuilder:validation:Minimum=0\n\n\n')
      // on the same line as a property
      .replace('  schedule: string;', '  schedule: string; // +kubebuilder:validation:MaxLength=10')
      // inside a body, after the last property
      .replace("  concurrencyPolicy?: 'Allow' | 'Forbid' | 'Replace';\n", "  concurrencyPolicy?: 'Allow' | 'Forbid' | 'Replace';\n\n  // +kubebuilder:validation:MinProperties=1\n")
      // after the last declaration
      .concat('\n// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=".metadata.creationTimestamp"\n');
    const { crds, errors } = build(stray);
    expect(crds).toEqual([]);
    const hint = '(put it in the comment right above a type or property, or in the group one blank line above that comment)';
    expect(errors).toEqual([
      `src/api/v1/cronjob_types.ts:11:24: error: +kubebuilder:validation:MaxLength belongs to no declaration, so it has no effect ${hint}`,
      `src/api/v1/cronjob_types.ts:13:6: error: +kubebuilder:validation:Minimum belongs to no declaration, so it has no effect ${hint}`,
      `src/api/v1/cronjob_types.ts:26:6: error: +kubebuilder:validation:MinProperties belongs to no declaration, so it has no effect ${hint}`,
      `src/api/v1/cronjob_types.ts:54:4: error: +kubebuilder:printcolumn belongs to no declaration, so it has no effect ${hint}`,
    ]);
  });

  it('finds stray markers in empty bodies, after an opening brace and inside type expressions, but not in strings', () => {
    const { errors } = build(
      cronJob.concat(
        [
          'export interface Empty {',
          '  // +kubebuilder:validation:MinProperties=1',
          '}',
          'export interface Brace { // +kubebuilder:validation:MaxProperties=2',
          '  a?: string;',
          '}',
          'export type Mode =',
          "  | 'a'",
          '  // +kubebuilder:validation:MaxLength=3',
          "  | 'b';",
          "export const url = 'http://example.com/ // +kubebuilder:validation:Minimum=1';",
          '',
        ].join('\n'),
      ),
    );
    expect(errors.map((e) => e.split(' belongs')[0])).toEqual([
      'src/api/v1/cronjob_types.ts:51:6: error: +kubebuilder:validation:MinProperties',
      'src/api/v1/cronjob_types.ts:53:29: error: +kubebuilder:validation:MaxProperties',
      'src/api/v1/cronjob_types.ts:58:6: error: +kubebuilder:validation:MaxLength',
    ]);
  });

  it('leaves RBAC and other generators\' markers alone wherever they are', () => {
    const { errors } = build(`${cronJob}\n// +kubebuilder:rbac:groups=batch,resources=jobs,verbs=get\n// +kubebuilder:scaffold:imports\n`);
    expect(errors).toEqual([]);
  });
});
