import { describe, expect, it } from 'vitest';
import { prune, type Json, type SchemaNode } from '../../src/internal/semantics/index.js';

describe('prune', () => {
  const schema: SchemaNode = {
    type: 'object',
    properties: {
      known: { type: 'object', properties: { a: { type: 'string' } } },
      list: { type: 'array', items: { type: 'object', properties: { b: { type: 'string' } } } },
      map: { type: 'object', additionalProperties: { type: 'object', properties: { c: { type: 'string' } } } },
      open: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { d: { type: 'object', properties: {} } } },
      embedded: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { spec: { type: 'object', properties: {} } } },
    },
  };

  it('drops exactly the fields the structural schema does not specify, and says which', () => {
    const value: Json = {
      unknown: 1,
      known: { a: 'x', z: 1 },
      list: [{ b: 'y', z: 2 }],
      map: { k: { c: 'z', z: 3 } },
      open: { anything: [1], d: { z: 4 } },
      embedded: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'n', color: 'red' }, spec: { z: 5 }, status: {} },
    };
    const dropped = prune(value, schema, false);
    expect(value).toEqual({
      known: { a: 'x' },
      list: [{ b: 'y' }],
      map: { k: { c: 'z' } },
      open: { anything: [1], d: {} },
      embedded: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'n' }, spec: {} },
    });
    expect(dropped).toEqual(['embedded.metadata.color', 'embedded.spec.z', 'embedded.status', 'known.z', 'list[0].z', 'map.k.z', 'open.d.z', 'unknown']);
  });

  it('keeps apiVersion, kind and metadata at the root of a resource only', () => {
    const object: Json = { apiVersion: 'v1', kind: 'K', metadata: { name: 'n' } };
    expect(prune(structuredClone(object), { type: 'object', properties: {} })).toEqual([]);
    expect(prune(structuredClone(object), { type: 'object', properties: {} }, false)).toEqual(['apiVersion', 'kind', 'metadata']);
  });
});
