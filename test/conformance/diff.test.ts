import { describe, expect, it } from 'vitest';
import { deliberateDifferences } from './deliberate.js';
import { diffCrds } from './diff.js';

const crd = (schema: object, annotations: Record<string, string> = {}) => ({
  metadata: { annotations, name: 'gadgets.example.com' },
  spec: { group: 'example.com', versions: [{ name: 'v1', schema: { openAPIV3Schema: schema } }] },
});

describe('diffCrds', () => {
  it('finds nothing between equal CRDs', () => {
    const schema = { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } } };
    expect(diffCrds(new Map([['a.yaml', crd(schema)]]), new Map([['a.yaml', crd(structuredClone(schema))]]))).toEqual([]);
  });

  it('names each differing keyword by its schema path, descriptions included', () => {
    const mine = { type: 'object', properties: { spec: { type: 'object', properties: { ports: { type: 'array', items: { type: 'integer', description: 'A port.' } } } } } };
    const theirs = { type: 'object', properties: { spec: { type: 'object', properties: { ports: { type: 'array', items: { type: 'integer', description: 'A port\nnumber.', maximum: 65535 } } } } } };
    expect(diffCrds(new Map([['a.yaml', crd(mine)]]), new Map([['a.yaml', crd(theirs)]]))).toEqual([
      { where: 'a.yaml versions[v1].schema.spec.ports[*]/description', opgen: 'A port.', controllerGen: 'A port\nnumber.' },
      { where: 'a.yaml versions[v1].schema.spec.ports[*]/maximum', opgen: undefined, controllerGen: 65535 },
    ]);
  });

  it('reports a CRD only one tool writes, and differences outside the schema', () => {
    const differences = diffCrds(new Map([['a.yaml', crd({}, { x: '1' })]]), new Map([['a.yaml', crd({})], ['b.yaml', crd({})]]));
    expect(differences.map((d) => d.where)).toEqual(['a.yaml metadata.annotations.x', 'b.yaml (whole file)']);
  });
});

describe('the deliberate differences of docs/api-types.md', () => {
  it('each have a reason and match by glob', () => {
    const deliberate = deliberateDifferences();
    expect(deliberate.every((d) => d.what.length > 0 && d.why.length > 0)).toBe(true);
    const embedded = deliberate.find((d) => d.matches('x.yaml versions[v1].schema.spec.template.metadata.labels/type'));
    expect(embedded).toBeDefined();
    // The root metadata is not an embedded ObjectMeta: no row excuses a difference there.
    expect(deliberate.find((d) => d.matches('x.yaml versions[v1].schema.metadata/type'))).toBeUndefined();
  });
});
