import { describe, expect, it } from 'vitest';
import type { JSONSchemaProps } from '../../src/schema/types.js';
import { checkStructural } from '../../src/validation/structural.js';
import { acceptedSpec, structuralRejections } from './cases.js';

/** A CRD root schema with `spec` set to the given schema. */
function root(spec: JSONSchemaProps): JSONSchemaProps {
  return {
    type: 'object',
    properties: {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: { type: 'object' },
      spec,
    },
  };
}

describe('checkStructural accepts', () => {
  it('a typical kubebuilder CRD schema', () => {
    expect(checkStructural(root(acceptedSpec))).toEqual([]);
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
    const problems = checkStructural(root(spec));
    expect(problems).toContainEqual({ path, message: expect.stringContaining(message) });
  });

  it('a root without a type, or of another type', () => {
    expect(checkStructural({ properties: {} })).toContainEqual({ path: '', message: 'the root must have a type' });
    expect(checkStructural({ type: 'string' })).toContainEqual({ path: '', message: 'the root must have type object, not string' });
  });

  it('additionalProperties at the root', () => {
    expect(checkStructural({ type: 'object', additionalProperties: { type: 'string' } })).toContainEqual({
      path: '',
      message: 'additionalProperties is not allowed at the root',
    });
  });

  it('root metadata that restricts more than name and generateName', () => {
    const withLabels: JSONSchemaProps = { type: 'object', properties: { metadata: { type: 'object', properties: { labels: { type: 'object' } } } } };
    expect(checkStructural(withLabels)).toContainEqual({ path: 'metadata', message: expect.stringContaining('not labels') });
    const described: JSONSchemaProps = { type: 'object', properties: { metadata: { type: 'object', description: 'meta' } } };
    expect(checkStructural(described)).toContainEqual({ path: 'metadata', message: expect.stringContaining('not description') });
  });

  it('metadata restricted inside a junctor', () => {
    const schema: JSONSchemaProps = { type: 'object', properties: { metadata: { type: 'object' } }, anyOf: [{ properties: { metadata: {} } }] };
    expect(checkStructural(schema)).toContainEqual({ path: '', message: expect.stringContaining('metadata must not be restricted inside') });
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
      { path: 'spec.template.containers[*].ports', message: 'an array must specify items' },
      { path: 'spec.labels[*]', message: 'must have a type (or x-kubernetes-preserve-unknown-fields)' },
      { path: 'spec["odd.name"]', message: 'must have a type (or x-kubernetes-preserve-unknown-fields)' },
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
      { path: 'spec.a.name', message: 'must have a type (or x-kubernetes-preserve-unknown-fields)' },
      { path: 'spec.b[*].name', message: 'must have a type (or x-kubernetes-preserve-unknown-fields)' },
    ];
    expect(checkStructural(schema)).toEqual(expected);
    expect(checkStructural(schema)).toEqual(expected);
  });

  it('accepts a clean subtree everywhere, and still checks what sits beside it', () => {
    const fine = freeze<JSONSchemaProps>({ type: 'object', properties: { port: { type: 'integer' } } });
    expect(checkStructural(root({ type: 'object', properties: { a: fine, b: fine } }))).toEqual([]);
    expect(checkStructural(root({ type: 'object', properties: { a: fine, c: { type: 'array' } } }))).toEqual([{ path: 'spec.c', message: 'an array must specify items' }]);
  });
});
