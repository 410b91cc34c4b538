import { describe, expect, it } from 'vitest';
import type { JSONSchemaProps } from '../../src/schema/types.js';
import { checkStructural } from '../../src/validation/structural.js';
import { acceptedSchemas, acceptedSpec, root, structuralRejections } from './cases.js';

describe('checkStructural accepts', () => {
  it('a typical kubebuilder CRD schema', () => {
    expect(checkStructural(root(acceptedSpec))).toEqual([]);
  });

  it.each(acceptedSchemas)('%s', (_, spec) => {
    expect(checkStructural(root(spec))).toEqual([]);
  });

  it('root metadata that narrows name and generateName', () => {
    const schema: JSONSchemaProps = {
      type: 'object',
      properties: { metadata: { type: 'object', properties: { name: { type: 'string', maxLength: 63 } } } },
    };
    expect(checkStructural(schema)).toEqual([]);
  });
});

describe('checkStructural rejects', () => {
  it.each(structuralRejections)('%s', (_, spec, path, message) => {
    expect(checkStructural(root(spec))).toContainEqual({ path, message });
  });

  it('a root without a type, or of another type', () => {
    expect(checkStructural({ properties: {} })).toContainEqual({ path: '', message: 'type: Required value: must not be empty at the root' });
    expect(checkStructural({ type: 'string' })).toContainEqual({ path: '', message: 'type: Invalid value: "string": must be object at the root' });
  });

  it('additionalProperties at the root', () => {
    expect(checkStructural({ type: 'object', additionalProperties: { type: 'string' } })).toContainEqual({
      path: '',
      message: 'additionalProperties: Forbidden: must not be used at the root',
    });
  });

  it('root metadata that restricts more than name and generateName, or has a default', () => {
    const refusal = { path: '', message: 'properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified' };
    const withLabels: JSONSchemaProps = { type: 'object', properties: { metadata: { type: 'object', properties: { labels: { type: 'object' } } } } };
    expect(checkStructural(withLabels)).toContainEqual(refusal);
    const described: JSONSchemaProps = { type: 'object', properties: { metadata: { type: 'object', description: 'meta' } } };
    expect(checkStructural(described)).toContainEqual(refusal);
    const defaulted: JSONSchemaProps = { type: 'object', properties: { metadata: { type: 'object', default: {} } } };
    expect(checkStructural(defaulted)).toEqual([{ path: 'metadata', message: 'default: Forbidden: must not be set in top-level metadata' }]);
  });

  it('an embedded resource inside top-level metadata', () => {
    const name: JSONSchemaProps = { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true };
    const schema: JSONSchemaProps = { type: 'object', properties: { metadata: { type: 'object', properties: { name } } } };
    expect(checkStructural(schema)).toContainEqual({ path: 'metadata.name', message: 'x-kubernetes-embedded-resource: Forbidden: must not be used inside of resource meta' });
  });

  it('a root junctor that restricts what the schema does not specify (completeness)', () => {
    const schema: JSONSchemaProps = { type: 'object', properties: { spec: { type: 'object' } }, anyOf: [{ required: ['b'], properties: { b: { minLength: 1 } } }] };
    expect(checkStructural(schema)).toEqual([{ path: '', message: 'properties[b]: Required value: because it is defined in anyOf[0].properties[b]' }]);
    expect(checkStructural({ type: 'object', anyOf: [{ items: { minLength: 1 } }] })).toEqual([{ path: '', message: 'items: Required value: because it is defined in anyOf[0].items' }]);
  });

  it('reports nested problems at their data path', () => {
    const schema = root({
      type: 'object',
      properties: {
        template: {
          type: 'object',
          properties: { containers: { type: 'array', items: { type: 'object', properties: { ports: { type: 'array' } } } } },
        },
        labels: { type: 'object', additionalProperties: { minLength: 1 } },
        'odd.name': { description: 'no type' },
      },
    });
    expect(checkStructural(schema)).toEqual([
      { path: 'spec.labels[*]', message: 'type: Required value: must not be empty for specified object fields' },
      { path: 'spec["odd.name"]', message: 'type: Required value: must not be empty for specified object fields' },
      { path: 'spec.template.containers[*].ports', message: 'items: Required value: must be specified' },
    ]);
  });
});

describe('checkStructural on a shared (frozen) subtree used in several places', () => {
  const freeze = <T extends object>(value: T): T => {
    for (const child of Object.values(value)) if (child && typeof child === 'object') freeze(child as object);
    return Object.freeze(value);
  };

  it('reports a problem of the subtree at every place it is used, every time', () => {
    const broken = freeze<JSONSchemaProps>({ type: 'object', properties: { port: { type: 'integer' }, name: {} } });
    const schema = root({ type: 'object', properties: { a: broken, b: { type: 'array', items: broken } } });
    const expected = [
      { path: 'spec.a.name', message: 'type: Required value: must not be empty for specified object fields' },
      { path: 'spec.b[*].name', message: 'type: Required value: must not be empty for specified object fields' },
    ];
    expect(checkStructural(schema)).toEqual(expected);
    expect(checkStructural(schema)).toEqual(expected);
  });

  it('accepts a clean subtree everywhere, and still checks what sits beside it', () => {
    const fine = freeze<JSONSchemaProps>({ type: 'object', properties: { port: { type: 'integer' } } });
    expect(checkStructural(root({ type: 'object', properties: { a: fine, b: fine } }))).toEqual([]);
    expect(checkStructural(root({ type: 'object', properties: { a: fine, c: { type: 'array' } } }))).toEqual([{ path: 'spec.c', message: 'items: Required value: must be specified' }]);
  });
});
