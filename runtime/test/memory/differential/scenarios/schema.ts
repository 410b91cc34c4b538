import { WIDGETS } from '../crds.js';
import type { Area, Scenario } from '../scenario.js';
import { MERGE, create, patch, widget } from '../steps.js';

const W = `${WIDGETS}/w`;
/** A scenario that creates a Widget with `spec` and records the answer. */
const creates = (name: string, spec: Record<string, unknown>): Scenario => ({ name, steps: [create(WIDGETS, widget('w', spec))] });

/** Structural schema validation, defaulting and pruning of custom resources, in the API server's order. */
export const schema: Area = {
  area: 'CRD schema: validation, defaulting, pruning',
  owner: 'schema',
  scenarios: [
    creates('defaults fill absent fields', {}),
    creates('defaults fill fields of list-map items', { ports: [{ name: 'http', port: 80 }] }),
    creates('defaults fill a nested object only when it is present', { settings: {} }),
    creates('a default is not applied over null of a nullable field', { note: null }),
    creates('null of a field that is not nullable is pruned (dropped)', { owner: null }),
    creates('unknown fields are pruned', { replicas: 1, unknown: 'x', settings: { level: 1, extra: true } }),
    creates('unknown fields are kept under preserve-unknown-fields', { config: { anything: { nested: [1, 2] } } }),
    creates('unknown fields of an embedded resource are kept, its metadata is checked', { template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', labels: { a: 'b' } }, spec: { x: 1 } } }),
    creates('an embedded resource without apiVersion and kind is 422 Invalid', { template: { metadata: { name: 'p' } } }),
    creates("an embedded resource's metadata.name is not checked as a name", { template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'Not Valid' } } }),
    creates('a string for an integer is 422 Invalid', { replicas: 'three' }),
    creates('a float for an integer is 422 Invalid', { replicas: 1.5 }),
    creates('an integer for a string is 422 Invalid', { owner: 5 }),
    creates('an object for a string is 422 Invalid', { owner: { a: 1 } }),
    creates('a string for a boolean is 422 Invalid', { enabled: 'yes' }),
    creates('a string for a list is 422 Invalid', { tags: 'a' }),
    creates('below the minimum is 422 Invalid', { replicas: -1 }),
    creates('above the maximum is 422 Invalid', { replicas: 11 }),
    creates('at an exclusive maximum is 422 Invalid', { ratio: 1 }),
    creates('a number within bounds is accepted', { ratio: 0.5 }),
    creates('not a multipleOf is 422 Invalid', { count: 3 }),
    creates('a value outside the enum is 422 Invalid', { size: 'huge' }),
    creates('a string too short is 422 Invalid', { name: '' }),
    creates('a string too long is 422 Invalid', { name: 'abcdefghijk' }),
    creates('a string not matching the pattern is 422 Invalid', { name: 'abc1' }),
    creates('a bad email format is 422 Invalid', { email: 'not an email' }),
    creates('a bad date-time format is 422 Invalid', { created: 'yesterday' }),
    creates('a good date-time format is accepted', { created: '2024-01-02T03:04:05Z' }),
    creates('too many items is 422 Invalid', { tags: ['a', 'b', 'c', 'd', 'e'] }),
    creates('duplicate items in a set list are 422 Invalid', { tags: ['a', 'a'] }),
    creates('duplicate keys in a map list are 422 Invalid', { ports: [{ name: 'x', port: 1 }, { name: 'x', port: 2 }] }),
    creates('a map list item without its key is 422 Invalid', { ports: [{ port: 1 }] }),
    creates('int-or-string takes an integer', { port: 8080 }),
    creates('int-or-string takes a string', { port: 'http' }),
    creates('int-or-string refuses a boolean', { port: true }),
    creates('several errors are all reported, in field order', { replicas: 20, size: 'huge', name: 'ABC', tags: 'x' }),
    creates('a wrong type under additionalProperties is 422 Invalid', { labels: { a: 1 } }),
    {
      name: 'a patch to an invalid value is 422 Invalid and nothing changes',
      steps: [create(WIDGETS, widget('w')), patch(W, MERGE, { spec: { size: 'huge' } }), { method: 'GET', path: W }],
    },
    {
      name: 'pruning applies to patches too',
      steps: [create(WIDGETS, widget('w')), patch(W, MERGE, { spec: { unknown: 1 }, extra: { top: true } })],
    },
    {
      name: 'a default is applied on read of an object stored without it (defaulting on update)',
      steps: [create(WIDGETS, widget('w', { settings: {} })), patch(W, MERGE, { spec: { settings: { mode: 'x' } } })],
    },
    {
      name: 'metadata fields other than the standard ones are pruned from a custom resource',
      steps: [create(WIDGETS, { ...widget('w'), metadata: { name: 'w', unknownMeta: 'x' } })],
    },
  ],
};
