import type { Area } from '../scenario.js';
import { APPLY, MERGE, create, patch } from '../steps.js';

/**
 * `oneOf`, `anyOf`, `allOf` and `not` on values, in the shapes published CRDs use them: a
 * oneOf of required branches ("exactly one of"), an anyOf of them ("at least one of"),
 * Istio's "at most one of" (a oneOf whose first branch is `not: {anyOf: …}`), `not` with
 * `required` ("never set"), a discriminated union (each branch pins `kind` by enum and
 * requires its own field), an anyOf whose branches differ in how much they check, allOf of bounds, and the same shapes under list items and map
 * values, and in a status written through its subresource. The objects are what a user might
 * send, valid or not, not picked for what the memory cluster reproduces.
 */
const JUNCTORS = '/apis/diff.opgen.dev/v1/namespaces/{ns}/junctors';

const pair = { a: { type: 'string' }, b: { type: 'string' } };
const exactlyOne = { type: 'object', properties: pair, oneOf: [{ required: ['a'] }, { required: ['b'] }] };

const spec = {
  type: 'object',
  properties: {
    exclusive: exactlyOne,
    atLeastOne: { type: 'object', properties: { x: { type: 'string' }, y: { type: 'string' } }, anyOf: [{ required: ['x'] }, { required: ['y'] }] },
    atMostOne: { type: 'object', properties: pair, oneOf: [{ not: { anyOf: [{ required: ['a'] }, { required: ['b'] }] } }, { required: ['a'] }, { required: ['b'] }] },
    noLegacy: { type: 'object', properties: { name: { type: 'string' }, legacy: { type: 'string' } }, not: { required: ['legacy'] } },
    bounded: {
      type: 'object',
      properties: { min: { type: 'integer' }, max: { type: 'integer' } },
      allOf: [{ properties: { min: { minimum: 0 } } }, { properties: { max: { maximum: 10 } } }],
    },
    source: {
      type: 'object',
      properties: { kind: { type: 'string' }, url: { type: 'string' }, path: { type: 'string' } },
      oneOf: [
        { properties: { kind: { enum: ['Http'] } }, required: ['url'] },
        { properties: { kind: { enum: ['File'] } }, required: ['path'] },
      ],
      'x-kubernetes-validations': [{ rule: "!has(self.url) || self.url.startsWith('http')", message: 'url must be http' }],
    },
    // "b, or else a long a": the API server reports the failing branch on which more checks ran, not the first.
    either: { type: 'object', properties: pair, anyOf: [{ required: ['b'] }, { properties: { a: { minLength: 3 } } }] },
    name: { type: 'string', anyOf: [{ pattern: '^app-' }, { minLength: 8 }], not: { enum: ['app-admin'] } },
    backends: { type: 'array', items: exactlyOne },
    routes: { type: 'object', additionalProperties: { type: 'object', properties: pair, anyOf: [{ required: ['a'] }, { required: ['b'] }] } },
  },
};

export const JUNCTOR_CRD: Record<string, unknown> = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'junctors.diff.opgen.dev' },
  spec: {
    group: 'diff.opgen.dev',
    names: { kind: 'Junctor', listKind: 'JunctorList', plural: 'junctors', singular: 'junctor' },
    scope: 'Namespaced',
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        subresources: { status: {} },
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: { apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: { type: 'object' }, spec, status: exactlyOne },
          },
        },
      },
    ],
  },
};

const junctor = (name: string, body: Record<string, unknown>, status?: Record<string, unknown>): Record<string, unknown> => ({
  apiVersion: 'diff.opgen.dev/v1',
  kind: 'Junctor',
  metadata: { name },
  spec: body,
  ...(status && { status }),
});
const createJ = (body: Record<string, unknown>) => create(JUNCTORS, junctor('j', body));

export const junctors: Area = {
  area: 'CRD schema junctors',
  owner: 'schema',
  scenarios: [
    { name: 'oneOf of required fields: exactly one is accepted', steps: [createJ({ exclusive: { b: 'x' } })] },
    { name: 'oneOf of required fields: none set names the first branch', steps: [createJ({ exclusive: {} })] },
    { name: 'anyOf of required fields: none set', steps: [createJ({ atLeastOne: { z: 'stray' } })] },
    { name: 'anyOf of required fields: both set is accepted', steps: [createJ({ atLeastOne: { x: '1', y: '2' } })] },
    { name: 'at most one of (not anyOf in a oneOf): none and one are accepted', steps: [createJ({ atMostOne: {} }), patch(`${JUNCTORS}/j`, MERGE, { spec: { atMostOne: { a: 'x' } } })] },
    { name: 'at most one of (not anyOf in a oneOf): both are refused', steps: [createJ({ atMostOne: { a: 'x', b: 'y' } })] },
    { name: 'not with required refuses the field', steps: [createJ({ noLegacy: { name: 'n', legacy: 'yes' } })] },
    { name: 'allOf of bounds: one clause fails', steps: [createJ({ bounded: { min: 0, max: 11 } })] },
    { name: 'allOf of bounds: every clause fails', steps: [createJ({ bounded: { min: -1, max: 11 } })] },
    { name: 'a discriminated union with the wrong field for its kind', steps: [createJ({ source: { kind: 'Http', path: '/data' } })] },
    { name: 'a discriminated union with an unknown kind', steps: [createJ({ source: { kind: 'Git', url: 'git://x' } })] },
    { name: 'a discriminated union matching its kind is accepted', steps: [createJ({ source: { kind: 'File', path: '/data', url: 'http://mirror' } })] },
    { name: 'anyOf reports the branch on which more checks ran', steps: [createJ({ either: { a: 'x' } }), createJ({ either: { a: 'xyz' } })] },
    { name: 'anyOf and not on a string', steps: [createJ({ name: 'web' }), createJ({ name: 'app-admin' }), createJ({ name: 'application' })] },
    { name: 'oneOf under list items', steps: [createJ({ backends: [{ a: '1' }, { a: '1', b: '2' }, {}, { b: '3' }] })] },
    { name: 'anyOf under map values', steps: [createJ({ routes: { web: { a: '/' }, api: {}, admin: { c: 'x' } } })] },
    {
      name: 'a merge patch that breaks a oneOf is refused, one that keeps it is not',
      steps: [createJ({ exclusive: { a: 'x' } }), patch(`${JUNCTORS}/j`, MERGE, { spec: { exclusive: { b: 'y' } } }), patch(`${JUNCTORS}/j`, MERGE, { spec: { exclusive: { a: null, b: 'y' } } })],
    },
    {
      name: 'an apply that breaks a oneOf under list items is refused',
      steps: [patch(`${JUNCTORS}/j`, APPLY, junctor('j', { backends: [{ a: '1' }, {}] }), undefined, { fieldManager: 'junctors', force: true })],
    },
    {
      name: 'a status written through its subresource is checked against its oneOf',
      steps: [createJ({}), patch(`${JUNCTORS}/j/status`, MERGE, { status: { a: 'x', b: 'y' } }), patch(`${JUNCTORS}/j/status`, MERGE, { status: { a: 'x' } })],
    },
  ],
};
