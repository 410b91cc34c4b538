import fc from 'fast-check';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { generateSamples, type SampleInput } from '../../src/generators/samples.js';
import { samplePath } from '../../src/project/sample-path.js';
import { checkSamples } from '../../src/generators/samples/check.js';
import { exampleValue } from '../../src/generators/samples/example.js';
import { patternExample } from '../../src/generators/samples/pattern-example.js';
import { formatUserError } from '../../src/errors.js';
import { builtinSchema } from '../../src/schema/builtins.js';
import type { JSONSchemaProps } from '../../src/schema/types.js';
import { validateValue } from '../../src/validation/value.js';
import { schemaArbitrary } from './schema-arbitrary.js';

const options = { projectName: 'demo-operator', domain: 'example.com' };

function crdSchema(spec: JSONSchemaProps, extra: Partial<JSONSchemaProps> = {}): JSONSchemaProps {
  return {
    type: 'object',
    properties: {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: { type: 'object' },
      spec,
      status: { type: 'object', properties: { name: { type: 'string' } } },
    },
    ...extra,
  };
}

const demoVolume: SampleInput = {
  group: 'storage.example.com',
  version: 'v1',
  kind: 'DemoVolume',
  plural: 'demovolumes',
  schema: crdSchema({
    type: 'object',
    required: ['name', 'size'],
    properties: {
      name: { type: 'string', minLength: 1, maxLength: 63 },
      size: { type: 'integer', format: 'int32', minimum: 1 },
      storageClass: { type: 'string' },
    },
  }),
};

describe('samplePath', () => {
  it('names samples like kubebuilder: short group, version, lower-case kind', () => {
    expect(samplePath(demoVolume, 'example.com')).toBe('config/samples/storage_v1_demovolume.yaml');
    expect(samplePath({ group: 'tutorials.ovhcloud.com', version: 'v1', kind: 'OvhNginx' }, 'ovhcloud.com')).toBe(
      'config/samples/tutorials_v1_ovhnginx.yaml',
    );
    expect(samplePath({ group: 'example.com', version: 'v1alpha1', kind: 'Echo' }, 'example.com')).toBe('config/samples/v1alpha1_echo.yaml');
  });
});

describe('generateSamples', () => {
  it('writes a kubebuilder-style sample with the required spec fields filled', () => {
    const [file, ...rest] = generateSamples([demoVolume], new Set(), options);
    expect(rest).toEqual([]);
    expect(file?.path).toBe('config/samples/storage_v1_demovolume.yaml');
    expect(file?.ownership).toBe('once');
    expect(file?.content).toBe(
      [
        'apiVersion: storage.example.com/v1',
        'kind: DemoVolume',
        'metadata:',
        '  labels:',
        '    app.kubernetes.io/name: demo-operator',
        '    app.kubernetes.io/managed-by: kustomize',
        '  name: demovolume-sample',
        'spec:',
        '  name: sample # TODO(user): placeholder for the required spec.name',
        '  size: 1',
        '',
      ].join('\n'),
    );
  });

  it("marks each made-up value of a required field with a TODO, and the sample still passes its schema and the samples check", () => {
    const cronJob: SampleInput = {
      ...demoVolume,
      group: 'batch.example.com',
      kind: 'CronJob',
      plural: 'cronjobs',
      schema: crdSchema(
        {
          type: 'object',
          required: ['jobTemplate', 'schedule'],
          properties: {
            schedule: { type: 'string', pattern: '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$' },
            jobTemplate: builtinSchema('V1JobTemplateSpec') as JSONSchemaProps,
            concurrencyPolicy: { type: 'string', enum: ['Allow', 'Forbid', 'Replace'], default: 'Allow' },
            suspend: { type: 'boolean' },
          },
        },
        { required: ['spec'] },
      ),
    };
    const [file] = generateSamples([cronJob], new Set(), options);
    const lines = file!.content.split('\n');
    const schedule = lines.find((line) => line.startsWith('  schedule: '));
    expect(schedule).toMatch(/^  schedule: (.+) # TODO\(user\): placeholder for the required spec\.schedule$/);
    const templateAt = lines.indexOf('  jobTemplate: {}');
    expect(lines[templateAt - 1]).toBe('  # TODO(user): placeholder for the required spec.jobTemplate');
    expect(file!.content).not.toContain('placeholder for the required spec\n');
    const object = parse(file!.content) as Record<string, unknown>;
    expect(validateValue(cronJob.schema, object)).toEqual([]);
    expect(checkSamples([cronJob], new Map([[file!.path, file!.content]]), options)).toEqual([]);
  });

  it('leaves samples that already exist alone', () => {
    const podSet: SampleInput = { ...demoVolume, group: 'app.example.com', version: 'v1alpha1', kind: 'PodSet', plural: 'podsets' };
    const files = generateSamples([demoVolume, podSet], new Set(['config/samples/storage_v1_demovolume.yaml']), options);
    expect(files.map((f) => f.path)).toEqual(['config/samples/app_v1alpha1_podset.yaml']);
  });

  it('writes an empty spec when nothing is required, and no status', () => {
    const [file] = generateSamples([{ ...demoVolume, schema: crdSchema({ type: 'object', properties: { a: { type: 'string' } } }) }], new Set(), options);
    expect(parse(file?.content ?? '')).toMatchObject({ spec: {} });
    expect(parse(file?.content ?? '')).not.toHaveProperty('status');
  });

  it('fills a pod template so that the sample validates against the inlined built-in schema', () => {
    const template = { ...(builtinSchema('V1PodTemplateSpec') as JSONSchemaProps), required: ['spec'] };
    const schema = crdSchema({ type: 'object', required: ['template', 'replicas'], properties: { template, replicas: { type: 'integer', minimum: 0 } } });
    const [file] = generateSamples([{ ...demoVolume, kind: 'PodSet', schema }], new Set(), options);
    const sample = parse(file?.content ?? '') as Record<string, unknown>;
    expect(sample.spec).toEqual({ replicas: 1, template: { spec: { containers: [] } } });
    expect(validateValue(schema, sample)).toEqual([]);
  });
});

describe('exampleValue', () => {
  it.each<[string, JSONSchemaProps, unknown]>([
    ['the default first', { type: 'integer', default: 3, example: 4, minimum: 1 }, 3],
    ['the example when there is no default', { type: 'string', example: 'nginx:1.27' }, 'nginx:1.27'],
    ['the first enum value', { type: 'string', enum: ['IfNotPresent', 'Always', 'Never'] }, 'IfNotPresent'],
    ['a valid enum value, passing over an invalid default', { type: 'string', enum: ['A', 'B'], default: 'C' }, 'A'],
    ['the minimum', { type: 'integer', minimum: 5 }, 5],
    ['past an exclusive minimum', { type: 'integer', minimum: 5, exclusiveMinimum: true }, 6],
    ['a multiple inside the limits', { type: 'integer', minimum: 7, maximum: 20, multipleOf: 5 }, 10],
    ['the maximum when 1 is too big', { type: 'number', maximum: -2 }, -2],
    ['a string of the minimum length', { type: 'string', minLength: 8 }, 'samplexx'],
    ['a string within the maximum length', { type: 'string', maxLength: 3 }, 'sam'],
    ['a DNS label for its pattern', { type: 'string', pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$', minLength: 3 }, 'aaa'],
    ['a date-time for its format', { type: 'string', format: 'date-time' }, '2024-01-01T00:00:00Z'],
    ['a number for int-or-string', { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] }, 1],
    ['min items', { type: 'array', minItems: 2, items: { type: 'string' }, 'x-kubernetes-list-type': 'set' }, ['sample', 'sample1']],
    [
      'required properties only',
      { type: 'object', required: ['b'], properties: { a: { type: 'string' }, b: { type: 'boolean' } } },
      { b: false },
    ],
    ['map entries for minProperties', { type: 'object', minProperties: 1, additionalProperties: { type: 'string' } }, { key1: 'sample' }],
    [
      'type fields of an embedded resource',
      { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
      { apiVersion: 'v1', kind: 'ConfigMap' },
    ],
  ])('uses %s', (_, schema, expected) => {
    const value = exampleValue(schema);
    expect(value).toEqual(expected);
    expect(validateValue(schema, value)).toEqual([]);
  });

  it('makes the keys of a map list distinct', () => {
    const schema: JSONSchemaProps = {
      type: 'array',
      minItems: 3,
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
      items: { type: 'object', required: ['name'], properties: { name: { type: 'string', pattern: '^[a-z]+$' } } },
    };
    expect(validateValue(schema, exampleValue(schema))).toEqual([]);
  });
});

describe('patternExample', () => {
  it.each([
    '^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$',
    '^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$',
    '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$',
    '^v\\d+(\\.\\d+){2}(-[0-9A-Za-z.]+)?$',
    '^[^\\s@]+@[^\\s@]+\\.[a-z]{2,}$',
    '^(Always|Never|IfNotPresent)$',
    '^\\w{3,5}-[A-F0-9]{2}$',
    '^(?:https?|ftp)://[a-z]+\\.[a-z]{2,3}/?$',
    '^\\p{Lu}\\p{Ll}+$',
  ])('builds a match for %s', (pattern) => {
    const regex = new RegExp(pattern, 'u');
    const value = patternExample(regex);
    expect(value).toBeDefined();
    expect(regex.test(value as string)).toBe(true);
  });

  it('respects length limits where the pattern allows', () => {
    const regex = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
    const value = patternExample(regex, 10, 12) as string;
    expect(value.length).toBeGreaterThanOrEqual(10);
    expect(value.length).toBeLessThanOrEqual(12);
    expect(regex.test(value)).toBe(true);
    expect(patternExample(/^\d{3}$/, 5)).toBeUndefined();
  });
});

describe('samples, property-based', () => {
  it('every sample validates against the schema it was built from', () => {
    fc.assert(
      fc.property(schemaArbitrary, (spec) => {
        const schema = crdSchema({ type: 'object', properties: { field: spec }, required: ['field'] });
        const [file] = generateSamples([{ ...demoVolume, schema }], new Set(), options);
        const sample = parse(file?.content ?? '') as unknown;
        expect(validateValue(schema, sample)).toEqual([]);
      }),
      { numRuns: 400 },
    );
  });
});

describe('checkSamples', () => {
  const written = (resource: SampleInput) => generateSamples([resource], new Set(), options)[0]!;
  const check = (resource: SampleInput, text: string) => checkSamples([resource], new Map([[samplePath(resource, options.domain), text]]), options).map(formatUserError);

  it("accepts opgen's own sample for today's schema, and locates what an edited one breaks", () => {
    const { content } = written(demoVolume);
    expect(check(demoVolume, content)).toEqual([]);
    expect(check(demoVolume, content.replace(/size: 1$/m, 'size: 0'))).toEqual([
      expect.stringMatching(/^config\/samples\/storage_v1_demovolume\.yaml:\d+:\d+: .*spec\.size .*no longer accepts this sample/),
    ]);
  });

  it('still reports, located, a sample that is exactly what opgen writes when the schema cannot accept it', () => {
    // No string is both at least 5 and at most 2 characters long, so the written sample breaks a limit.
    const impossible: SampleInput = { ...demoVolume, schema: crdSchema({ type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 5, maxLength: 2 } } }) };
    const { content } = written(impossible);
    const line = content.split('\n').findLastIndex((l) => /^\s+name:/.test(l)) + 1; // spec.name, after metadata.name
    expect(check(impossible, content)).toEqual([expect.stringMatching(new RegExp(`^config/samples/storage_v1_demovolume\\.yaml:${line}:\\d+: .*spec\\.name `))]);
  });
});
