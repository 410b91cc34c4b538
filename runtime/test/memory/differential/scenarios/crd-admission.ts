import type { Area, Scenario } from '../scenario.js';
import { create, get, remove, settleExists, settleField } from '../steps.js';
import { fieldPathCases, fieldPathSpec } from '../../../../../test/validation/cases.js';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

/** A CRD of the kind `Thing` in group `{ns}.diff.opgen.dev`, whose version v1 has `schema` (and `version` merged in). */
function crd(schema: unknown, version: Record<string, unknown> = {}, spec: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'things.{ns}.diff.opgen.dev' },
    spec: {
      group: '{ns}.diff.opgen.dev',
      names: { kind: 'Thing', listKind: 'ThingList', plural: 'things', singular: 'thing' },
      scope: 'Namespaced',
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema }, ...version }],
      ...spec,
    },
  };
}
const object = (properties: Record<string, unknown>): Record<string, unknown> => ({ type: 'object', properties: { spec: { type: 'object', properties } } });

const THINGS = `${CRDS}/things.{ns}.diff.opgen.dev`;
const THING_LISTS = `${CRDS}/thinglists.{ns}.diff.opgen.dev`;
/** A CRD of kind `ThingList` beside `Thing` in the same group: its kind is Thing's list kind. */
const thingList = {
  ...crd(object({})),
  metadata: { name: 'thinglists.{ns}.diff.opgen.dev' },
  spec: { ...(crd(object({})).spec as object), names: { kind: 'ThingList', plural: 'thinglists' } },
};

/** A CRD the API server refuses: the scenario records the refusal (nothing is created). */
const refused = (name: string, body: Record<string, unknown>): Scenario => ({
  name,
  noNamespace: true,
  // The delete cleans up should the API server accept it after all: a 404 says it did not.
  steps: [create(CRDS, body), { ...remove(`${CRDS}/${(body.metadata as { name: string }).name}`), quiet: true }],
});

/** A CRD the API server accepts: the scenario records its answer, then deletes it. */
const accepted = (name: string, body: Record<string, unknown>): Scenario => ({
  name,
  noNamespace: true,
  steps: [{ ...create(CRDS, body), quiet: true }, { ...remove(`${CRDS}/${(body.metadata as { name: string }).name}`), quiet: true }],
});

/** What apiextensions-apiserver refuses when a CRD is created, with its messages. */
export const crdAdmission: Area = {
  area: 'CRD admission',
  owner: 'schema',
  scenarios: [
    refused('a CRD whose name is not plural.group is refused', { ...crd(object({})), metadata: { name: 'wrong.{ns}.diff.opgen.dev' } }),
    refused('a CRD without a schema is refused', crd(undefined)),
    refused('a schema without a type at the root is refused', crd({ properties: { spec: { type: 'object' } } })),
    refused('a property without a type is refused (not structural)', crd(object({ size: { minimum: 1 } }))),
    refused('a default that does not validate against its schema is refused', crd(object({ size: { type: 'integer', minimum: 1, default: 0 } }))),
    refused('a list-map without keys is refused', crd(object({ ports: { type: 'array', 'x-kubernetes-list-type': 'map', items: { type: 'object', properties: { name: { type: 'string' } } } } }))),
    refused('a list-map key that is not required and has no default is refused', crd(object({ ports: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], items: { type: 'object', properties: { name: { type: 'string' } } } } }))),
    refused('a CEL rule that does not compile is refused', crd(object({ size: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self > ' }] } }))),
    refused('a CEL rule selecting a field of a number is refused', crd(object({ size: { type: 'number', 'x-kubernetes-validations': [{ rule: 'self.size > 0' }] } }))),
    refused('a CEL rule of the wrong result type is refused', crd(object({ size: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self + 1' }] } }))),
    refused('a CEL rule over an unbounded list costs too much and is refused', crd(object({ items: { type: 'array', items: { type: 'string' }, 'x-kubernetes-validations': [{ rule: 'self.all(x, self.all(y, x != y || true))' }] } }))),
    refused('a messageExpression that costs too much is refused', crd(object({ n: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self > 0', messageExpression: "'n is ' + string(self)" }] } }))),
    refused('isSorted() of a list of objects is refused', crd(object({ lo: { type: 'array', maxItems: 5, items: { type: 'object', properties: { a: { type: 'string', maxLength: 8 } } }, 'x-kubernetes-validations': [{ rule: 'self.isSorted()' }] } }))),
    accepted('isSorted() of a list of strings is accepted', crd(object({ ls: { type: 'array', maxItems: 5, items: { type: 'string', maxLength: 8 }, 'x-kubernetes-validations': [{ rule: 'self.isSorted()' }] } }))),
    refused('a CEL reason that is not allowed is refused', crd(object({ n: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self > 0', reason: 'Nope' }] } }))),
    refused('a fieldPath that does not exist is refused', crd({ type: 'object', properties: { spec: { type: 'object', properties: { n: { type: 'integer' } }, 'x-kubernetes-validations': [{ rule: 'self.n > 0', fieldPath: '.missing' }] } } })),
    // A rule's fieldPath, as both `opgen manifests` and the memory cluster check it (test/validation/same-reason.test.ts).
    ...fieldPathCases.map(([fieldPath, detail]) =>
      (detail ? refused : accepted)(`the fieldPath ${JSON.stringify(fieldPath)} is ${detail ? 'refused' : 'accepted'}`, crd({ type: 'object', properties: { spec: fieldPathSpec(fieldPath) } })),
    ),
    refused('two storage versions are refused', crd(object({}), {}, { versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: object({}) } }, { name: 'v2', served: true, storage: true, schema: { openAPIV3Schema: object({}) } }] })),
    refused('a selectable field that is not in the schema is refused', crd(object({ n: { type: 'integer' } }), { selectableFields: [{ jsonPath: '.spec.missing' }] })),
    refused('a scale specReplicasPath outside .spec is refused', crd(object({ n: { type: 'integer' } }), { subresources: { scale: { specReplicasPath: '.status.replicas', statusReplicasPath: '.status.replicas' } } })),
    // Rules opgen manifests checked and the memory cluster did not, or the reverse (one semantics core since).
    refused('a description inside an allOf clause is refused (not structural)', crd(object({ s: { type: 'string', allOf: [{ description: 'x' }] } }))),
    refused('metadata inside a junctor clause is refused', crd(object({ o: { type: 'object', properties: { metadata: { type: 'object' } }, anyOf: [{ properties: { metadata: {} } }] } }))),
    refused('a root junctor restricting a property the schema does not specify is refused', crd({ type: 'object', properties: { spec: { type: 'object' } }, anyOf: [{ required: ['b'], properties: { b: { minLength: 1 } } }] })),
    refused('a list type on an object is refused', crd(object({ o: { type: 'object', 'x-kubernetes-list-type': 'set' } }))),
    refused('a list-map key that is not a property of the items is refused', crd(object({ ports: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['id'], items: { type: 'object', properties: { name: { type: 'string' } } } } }))),
    refused('a set of granular objects is refused', crd(object({ s: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'object', properties: { a: { type: 'string' } } } } }))),
    refused('a nullable list-map key is refused', crd(object({ ports: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], items: { type: 'object', required: ['name'], properties: { name: { type: 'string', nullable: true } } } } }))),
    refused('an embedded resource without properties is refused', crd(object({ e: { type: 'object', 'x-kubernetes-embedded-resource': true } }))),
    refused('additionalProperties false beside properties is refused', crd(object({ o: { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false } }))),
    refused('patternProperties is refused', crd(object({ o: { type: 'object', patternProperties: { a: { type: 'string' } } } }))),
    refused('a CEL message of two lines is refused', crd(object({ n: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self > 0', message: 'one\ntwo' }] } }))),
    refused('a blank CEL message is refused', crd(object({ n: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self > 0', message: '  ' }] } }))),
    refused('a default with fields the schema does not specify is refused', crd(object({ o: { type: 'object', properties: { a: { type: 'string' } }, default: { a: 'x', b: 'y' } } }))),
    refused('a default matching both schemas of a oneOf is refused', crd(object({ o: { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } }, oneOf: [{ required: ['a'] }, { required: ['b'] }], default: { a: 'x', b: 'y' } } }))),
    refused('a default in top-level metadata is refused', crd({ type: 'object', properties: { metadata: { type: 'object', default: {} } } })),
    accepted('a junctor below the root may restrict a property the schema does not specify', crd(object({ o: { type: 'object', properties: { a: { type: 'string' } }, anyOf: [{ required: ['b'], properties: { b: { minLength: 1 } } }] } }))),
    accepted('a default under additionalProperties is not checked', crd(object({ m: { type: 'object', additionalProperties: { type: 'integer', default: 'x' } } }))),
    accepted('a default with duplicates in a set list is accepted', crd(object({ tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' }, default: ['a', 'a'] } }))),
    accepted('an empty CEL message is no message', crd(object({ n: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self > 0', message: '' }] } }))),
    refused('a group without a dot is refused', { ...crd(object({})), metadata: { name: 'things.{ns}' }, spec: { ...(crd(object({})).spec as object), group: '{ns}' } }),
    {
      name: 'a CRD with a good schema is accepted and its kind served',
      noNamespace: true,
      steps: [
        { ...create(CRDS, crd(object({ n: { type: 'integer' } }))), quiet: true },
        { ...remove(`${CRDS}/things.{ns}.diff.opgen.dev`), quiet: true },
      ],
    },
    {
      name: 'a CRD whose kind is the list kind of another of its group is never established, nor served, until that one goes',
      noNamespace: true,
      steps: [
        { ...create(CRDS, crd(object({}))), quiet: true },
        { ...settleField(THINGS, 'status.acceptedNames.kind', 'Thing'), quiet: true },
        { ...create(CRDS, thingList), quiet: true },
        // Until the naming controller has written both conditions (the API server stores
        // `conditions: null` first), then what it wrote.
        { ...settleField(THING_LISTS, 'status.conditions.1.type', 'Established'), quiet: true },
        { ...settleExists(THING_LISTS, 'status.conditions'), quiet: true },
        { ...settleExists(THING_LISTS, 'status.acceptedNames'), quiet: true },
        get('/apis/{ns}.diff.opgen.dev/v1/thinglists'),
        { ...remove(THINGS), quiet: true },
        { ...settleField(THING_LISTS, 'status.acceptedNames.kind', 'ThingList'), quiet: true },
        { ...remove(THING_LISTS), quiet: true },
      ],
    },
    {
      name: 'a CRD that exists is 409 AlreadyExists',
      noNamespace: true,
      steps: [{ ...create(CRDS, crd(object({}))), quiet: true }, create(CRDS, crd(object({}))), { ...remove(`${CRDS}/things.{ns}.diff.opgen.dev`), quiet: true }],
    },
  ],
};
