import { describe, expect, it } from 'vitest';
import type { CustomResourceDefinition } from '../../src/crd/types.js';
import type { JSONSchemaProps } from '../../src/schema/types.js';
import { quantityPattern } from '../../src/schema/builtins/known.js';
import { typeMetaDescriptions } from '../../src/schema/kind.js';
import { comparable, differences, roundTrip } from './round-trip.js';

// Each schema construct the issue names, on one synthetic CRD: the TypeScript type it
// becomes, and its exact way back through the CRD builder.

const spec: JSONSchemaProps = {
  type: 'object',
  required: ['size'],
  properties: {
    size: { description: 'How much.', ...{ anyOf: [{ type: 'integer' }, { type: 'string' }], 'x-kubernetes-int-or-string': true, pattern: quantityPattern } },
    port: { anyOf: [{ type: 'integer' }, { type: 'string' }], 'x-kubernetes-int-or-string': true },
    since: { type: 'string', format: 'date-time' },
    every: { type: 'string', format: 'duration' },
    payload: { type: 'string', format: 'byte' },
    raw: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
    marker: { type: 'object', description: 'Set to switch it on.' },
    anything: { 'x-kubernetes-preserve-unknown-fields': true },
    template: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
    note: { type: 'string', nullable: true },
    labels: { type: 'object', additionalProperties: { type: 'string', maxLength: 63 } },
    mode: { type: 'string', enum: ['Fast', 'Safe'], default: 'Safe' },
    replicas: { type: 'integer', format: 'int32', minimum: 0, maximum: 10 },
    ports: {
      type: 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
      maxItems: 8,
      items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, number: { type: 'integer', format: 'int32' } } },
    },
    'weird-name': { type: 'string', 'x-kubernetes-validations': [{ rule: 'self != "*/"', message: 'no "*/"', reason: 'FieldValueForbidden' }] },
  },
};

const crd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'gadgets.example.org' },
  spec: {
    group: 'example.org',
    names: { kind: 'Gadget', listKind: 'GadgetList', plural: 'gadgets', singular: 'gadget' },
    scope: 'Cluster',
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { apiVersion: { type: 'string', description: typeMetaDescriptions.apiVersion }, kind: { type: 'string', description: typeMetaDescriptions.kind }, metadata: { type: 'object' }, spec } } } }],
  },
} as CustomResourceDefinition;

describe('opgen import crd types', () => {
  const trip = roundTrip(crd, 'gadgets.yaml');
  const text = trip.imported.files.find((f) => f.path === 'src/external/example.org/v1/gadget_types.ts')!.content;

  it.each([
    ['a quantity', '  size: Quantity;'],
    ['an int-or-string', '  port?: IntOrString;'],
    ['a date-time', '  since?: Time;'],
    ['a duration', '  every?: Duration;'],
    ['bytes', '  payload?: Bytes;'],
    ['an object keeping unknown fields', '  raw?: RawExtension;'],
    ['an object without properties, allowed past the scaffold\'s lint rules', '/* eslint-disable @typescript-eslint/no-empty-object-type */\nimport'],
    ['an object without properties', 'export interface GadgetSpecMarker {}'],
    ['any JSON value', '  anything?: JSONValue;'],
    ['an embedded resource', '   * +kubebuilder:validation:XEmbeddedResource\n   */\n  template?: RawExtension;'],
    ['a nullable field', '  note?: string | null;'],
    ['a map with validated values', '  labels?: Record<string, GadgetSpecLabels>;'],
    ['an enum with a default', "   * +default=\"Safe\"\n   */\n  mode?: 'Fast' | 'Safe';"],
    ['a list-map', '   * +listType=map\n   * +listMapKey=name\n   * +kubebuilder:validation:MaxItems=8\n   */\n  ports?: GadgetSpecPorts[];'],
    ['a property that is no identifier, with a rule that holds */', "   * +kubebuilder:validation:XValidation:rule=\"self != \\\"*\\/\\\"\",message=\"no \\\"*\\/\\\"\",reason=FieldValueForbidden\n   */\n  'weird-name'?: string;"],
    ['the handle of a cluster-scoped kind', "export const Gadget = defineKind<Gadget, false>({ ...groupVersion, kind: 'Gadget', plural: 'gadgets', namespaced: false });"],
  ])('types %s', (_, line) => {
    expect(text).toContain(line);
  });

  it("warns that apiVersion and kind come back with Kubernetes' descriptions when the CRD has others", () => {
    const plain = structuredClone(crd);
    const root = plain.spec.versions[0]!.schema.openAPIV3Schema;
    root.properties!.apiVersion = { type: 'string' };
    delete root.properties!.kind;
    const again = roundTrip(plain, 'gadgets.yaml');
    const path = 'spec.versions[0].schema.openAPIV3Schema.properties';
    expect(again.imported.problems.map(({ path, message }) => ({ path, message }))).toEqual([
      { path: `${path}.apiVersion`, message: "opgen manifests always writes apiVersion as a string with Kubernetes' description of it" },
      { path: `${path}.kind`, message: "opgen manifests always writes kind as a string with Kubernetes' description of it" },
    ]);
    expect(differences(comparable(plain), comparable(again.built!))).toEqual([`${path}.apiVersion.description`, `${path}.kind`]);
  });

  it('gives the CRD back exactly, with no warning', () => {
    expect(trip.errors).toEqual([]);
    expect(trip.imported.problems).toEqual([]);
    expect(differences(comparable(crd), comparable(trip.built!))).toEqual([]);
  });
});
