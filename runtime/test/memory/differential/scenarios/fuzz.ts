import type { Area } from '../scenario.js';
import { APPLY, MERGE, create, patch } from '../steps.js';

/**
 * What the schema-driven fuzz run (runtime/test/memory/fuzz) found, each as the smallest
 * scenario that shows it, on the suite's own Fuzzed kind (v1beta1 served, v1 stored; their
 * schemas differ by one defaulted field). The ones the memory cluster still answers otherwise
 * are listed in gaps.ts.
 */
export const FUZZED = '/apis/diff.opgen.dev/v1/namespaces/{ns}/fuzzeds';
const FUZZED_BETA = '/apis/diff.opgen.dev/v1beta1/namespaces/{ns}/fuzzeds';

const spec = (betaOnly: boolean): Record<string, unknown> => ({
  type: 'object',
  properties: {
    name: { type: 'string', maxLength: 16 },
    ...(betaOnly && { retry: { type: 'integer', default: 15 } }),
    blob: { type: 'string', format: 'byte', maxLength: 16 },
    when: { type: 'string', format: 'date-time' },
    count: { type: 'integer', format: 'int32' },
    ref: { type: 'object', 'x-kubernetes-map-type': 'atomic', properties: { name: { type: 'string', maxLength: 16 } } },
    items: {
      type: 'array',
      maxItems: 8,
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
      items: { type: 'object', required: ['name'], properties: { name: { type: 'string', maxLength: 8 }, value: { type: 'string', maxLength: 8 } } },
    },
    address: {
      type: 'object',
      properties: { type: { type: 'string', maxLength: 16 }, value: { type: 'string', maxLength: 16 } },
      oneOf: [{ required: ['type'] }, { required: ['value'] }],
    },
    probe: {
      type: 'object',
      properties: { a: { type: 'string', maxLength: 8 }, b: { type: 'string', maxLength: 8 }, port: { type: 'string', maxLength: 8 } },
      'x-kubernetes-validations': [
        { rule: "self.a == 'x' || self.b == 'y'", message: 'a or b' },
        { rule: '!has(self.port) || int(self.port) > 0', message: 'port is a positive number' },
      ],
    },
    template: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
  },
});

export const FUZZED_CRD: Record<string, unknown> = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'fuzzeds.diff.opgen.dev' },
  spec: {
    group: 'diff.opgen.dev',
    names: { kind: 'Fuzzed', listKind: 'FuzzedList', plural: 'fuzzeds', singular: 'fuzzed' },
    scope: 'Namespaced',
    versions: ['v1beta1', 'v1'].map((name) => ({
      name,
      served: true,
      storage: name === 'v1',
      schema: { openAPIV3Schema: { type: 'object', properties: { apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: { type: 'object' }, spec: spec(name === 'v1beta1') } } },
    })),
  },
};

const fuzzed = (name: string, body: Record<string, unknown>, version = 'v1'): Record<string, unknown> => ({
  apiVersion: `diff.opgen.dev/${version}`,
  kind: 'Fuzzed',
  metadata: { name },
  spec: body,
});
const apply = (body: Record<string, unknown>) => patch(`${FUZZED}/f`, APPLY, fuzzed('f', body), undefined, { fieldManager: 'fuzz', force: true });
const base = create(FUZZED, fuzzed('f', { name: 'a', ref: { name: 'r' } }));

export const fuzzFindings: Area = {
  area: 'fuzz findings',
  owner: 'schema',
  scenarios: [
    { name: 'an applied string field given a boolean is a 500 of the typed patch', steps: [base, apply({ name: true })] },
    { name: 'an applied atomic struct given a list is a 500 of the typed patch', steps: [base, apply({ ref: [{}] })] },
    { name: 'an applied list-map item without its key is a 500 of the typed patch', steps: [base, apply({ items: [{ value: 'v' }] })] },
    { name: 'an applied null for a string field is refused by validation', steps: [base, apply({ name: null })] },
    { name: 'a merge patch with an unknown field under Strict is a 422 quoting the patched object', steps: [base, patch(`${FUZZED}/f`, MERGE, { spec: { typo: 1 } }, undefined, { fieldValidation: 'Strict' })] },
    { name: 'an empty byte string is refused', steps: [create(FUZZED, fuzzed('f', { blob: '' }))] },
    { name: 'a date-time with a space for T is refused', steps: [create(FUZZED, fuzzed('f', { when: '2024-01-02 03:04:05Z' }))] },
    { name: 'an int32 out of range is refused', steps: [create(FUZZED, fuzzed('f', { count: 2 ** 40 }))] },
    { name: 'a boolean for an int32 field is refused by its format', steps: [create(FUZZED, fuzzed('f', { count: true }))] },
    { name: 'a repeated list-map key is reported once', steps: [create(FUZZED, fuzzed('f', { items: [{ name: 'a' }, { name: 'a' }, { name: 'a' }] }))] },
    { name: 'a CEL runtime error names the rule by its message', steps: [create(FUZZED, fuzzed('f', { probe: { a: 'z' } }))] },
    { name: 'a CEL || whose sides both fail reports the left error', steps: [create(FUZZED, fuzzed('f', { probe: {} }))] },
    { name: 'int() of a string that is no number names the conversion', steps: [create(FUZZED, fuzzed('f', { probe: { a: 'x', port: 'x' } }))] },
    {
      name: 'a read through a non-storage version shows no default only that version has',
      steps: [create(FUZZED_BETA, fuzzed('f', { name: 'a' }, 'v1beta1'))],
    },
    {
      name: 'an empty merge patch through a version that defaults a field the storage version lacks',
      steps: [create(FUZZED, fuzzed('f', { name: 'a' })), patch(`${FUZZED_BETA}/f`, MERGE, {}, undefined, { dryRun: 'All' })],
    },
    { name: 'oneOf in a schema is enforced', steps: [create(FUZZED, fuzzed('f', { address: { type: 'a', value: 'b' } }))] },
    { name: 'an embedded resource with a bad label key is refused', steps: [create(FUZZED, fuzzed('f', { template: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', labels: { 'a/b/c': 'x' } } } }))] },
  ],
};
