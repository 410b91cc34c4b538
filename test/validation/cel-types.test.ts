import { describe, expect, it } from 'vitest';
import type { JSONSchemaProps } from '../../src/schema/types.js';
import { celName, checkCelTypes, schemaTypes } from '@opgen/runtime/internal/cel';

// The type-checker without an API server (the corpus test proves it against kube-apiserver).
// Columns are 1-based in the expression: `nope` in `true && self.nope` is at 14.

const spec = (rules: JSONSchemaProps['x-kubernetes-validations'], extra: Partial<JSONSchemaProps> = {}): JSONSchemaProps => ({
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      'x-kubernetes-validations': rules,
      properties: {
        name: { type: 'string' },
        'max-size': { type: 'integer' },
        when: { type: 'string', format: 'date-time' },
        items: { type: 'array', items: { type: 'object', properties: { id: { type: 'string' } }, 'x-kubernetes-validations': extra['x-kubernetes-validations'] } },
      },
    },
  },
});

describe('checkCelTypes', () => {
  it('types self from the schema: escaped names, timestamps, the root metadata', () => {
    expect(checkCelTypes(spec([{ rule: "self.max__dash__size > 1 && self.when > timestamp('2020-01-01T00:00:00Z') && self.name != ''" }]))).toEqual([]);
    const root: JSONSchemaProps = { type: 'object', 'x-kubernetes-validations': [{ rule: "self.metadata.name.size() < 10 && self.metadata.namespace == 'a'" }], properties: { metadata: { type: 'object' } } };
    expect(checkCelTypes(root).map((p) => p.message)).toEqual(['No such key: namespace']);
  });

  it('reports the column in the expression, and a messageExpression that is not a string', () => {
    const problems = checkCelTypes(spec([{ rule: 'true && self.nope', messageExpression: 'self.max__dash__size' }]));
    expect(problems.map(({ field, message, column, path }) => ({ field, message, column, path }))).toEqual([
      { field: 'rule', message: 'No such key: nope', column: 14, path: 'spec' },
      { field: 'messageExpression', message: 'must evaluate to string, not int', column: undefined, path: 'spec' },
    ]);
  });

  it('refuses oldSelf on the items of a list that is not a list-type=map, and allows it on the spec', () => {
    const problems = checkCelTypes(spec([{ rule: 'self.name == oldSelf.name' }], { 'x-kubernetes-validations': [{ rule: 'self.id == oldSelf.id' }] }));
    expect(problems.map((p) => p.path)).toEqual(['spec.items[*]']);
  });

  it('checks the fields has() names, through objects only', () => {
    const problems = checkCelTypes(spec([{ rule: 'has(self.name) && has(self.nope)' }]));
    expect(problems.map(({ message, column }) => ({ message, column }))).toEqual([{ message: 'No such key: nope', column: 28 }]);
    expect(checkCelTypes(spec([{ rule: 'has(self.items) && self.items.all(i, has(i.id))' }]))).toEqual([]);
  });

  it('refuses a field selected on a number, a string or a list, in cel-go\'s words for a scalar', () => {
    const root: JSONSchemaProps = {
      type: 'object',
      properties: {
        size: { type: 'number', 'x-kubernetes-validations': [{ rule: 'self.size > 0' }] },
        name: { type: 'string', 'x-kubernetes-validations': [{ rule: "self.first == 'a'" }] },
        tags: { type: 'array', items: { type: 'string' }, 'x-kubernetes-validations': [{ rule: 'self.count > 1' }] },
        labels: { type: 'object', additionalProperties: { type: 'string' }, 'x-kubernetes-validations': [{ rule: "self.app == 'a'" }] },
      },
    };
    expect(checkCelTypes(root).map(({ path, message, column }) => ({ path, message, column }))).toEqual([
      { path: 'size', message: "type 'double' does not support field selection", column: 6 },
      { path: 'name', message: "type 'string' does not support field selection", column: 6 },
      { path: 'tags', message: "List index must be int, got 'string'", column: 6 },
    ]);
  });

  it('leaves alone what it cannot judge: functions it does not declare, two-variable comprehensions', () => {
    expect(checkCelTypes(spec([{ rule: "sets.contains([self.name], ['a']) && [1].all(i, v, v > i) && self.name.someFutureFunction()" }]))).toEqual([]);
  });

  it('compares objects and lists of objects: equality is defined on every type', () => {
    expect(checkCelTypes(spec([{ rule: 'self == oldSelf && self.items == oldSelf.items && self.items.all(x, x == oldSelf.items[0]) && self != oldSelf' }]))).toEqual([]);
  });

  it('refuses a matches() pattern literal RE2 refuses, at the pattern, and accepts RE2 flags', () => {
    const problems = checkCelTypes(spec([{ rule: "self.name.matches('(a)\\\\1') || matches(self.name, '(?i)^a')" }]));
    expect(problems.map(({ message, column }) => ({ message, column }))).toEqual([{ message: 'invalid matches argument', column: 19 }]);
    expect(checkCelTypes(spec([{ rule: "self.name.matches('(?i)^[a-z]+\\\\z') && self.name.find('(?s).') != ''" }]))).toEqual([]);
  });

  it('escapes property names as Kubernetes does', () => {
    expect([celName('a-b'), celName('a.b'), celName('x/y'), celName('a__b'), celName('namespace'), celName('1a')]).toEqual(['a__dash__b', 'a__dot__b', 'x__slash__y', 'a__underscores__b', '__namespace__', undefined]);
    expect(schemaTypes({ type: 'object', properties: { m: { type: 'object', additionalProperties: { type: 'integer' } } } }).objects.size).toBe(2);
  });
});
