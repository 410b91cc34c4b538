import { describe, expect, it } from 'vitest';
import type { JSONSchemaProps } from '../../src/schema/types.js';
import { validateValue } from '../../src/validation/value.js';

const quantityPattern =
  '^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$';
const quantity: JSONSchemaProps = { anyOf: [{ type: 'integer' }, { type: 'string' }], 'x-kubernetes-int-or-string': true, pattern: quantityPattern };

describe('validateValue', () => {
  it.each<[string, JSONSchemaProps, unknown]>([
    ['a string', { type: 'string', minLength: 1, maxLength: 3 }, 'abc'],
    ['an integral number as integer', { type: 'integer', minimum: 1, maximum: 3 }, 3],
    ['a number', { type: 'number', exclusiveMinimum: true, minimum: 0 }, 0.5],
    ['null when nullable', { type: 'string', nullable: true }, null],
    ['anything when untyped and preserving', { 'x-kubernetes-preserve-unknown-fields': true }, [1, { a: null }]],
    ['a quantity string', quantity, '1.5Gi'],
    ['a quantity integer', quantity, 10],
    ['an enum value', { type: 'string', enum: ['Always', 'Never'] }, 'Never'],
    ['a multiple', { type: 'number', multipleOf: 0.1 }, 0.3],
    ['a date-time', { type: 'string', format: 'date-time' }, '2024-02-29T12:00:00.5+02:00'],
    ['an unchecked format', { type: 'string', format: 'int-or-whatever' }, 'x'],
    ['a pattern in RE2 spelling', { type: 'string', pattern: '(?i)^[[:alpha:]]+\\z' }, 'AbC'],
    ['a list-map with distinct keys', { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['n'], items: { type: 'object' } }, [{ n: 1 }, { n: 2 }]],
    ['an embedded resource', { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true }, { apiVersion: 'v1', kind: 'Pod' }],
  ])('accepts %s', (_, schema, value) => {
    expect(validateValue(schema, value)).toEqual([]);
  });

  it.each<[string, JSONSchemaProps, unknown, { path: string; message: string }]>([
    ['a wrong type', { type: 'integer' }, '1', { path: '', message: 'must be of type integer, got string' }],
    ['a fraction as integer', { type: 'integer' }, 1.5, { path: '', message: 'must be of type integer, got number' }],
    ['null when not nullable', { type: 'object' }, null, { path: '', message: 'must be of type object, got null' }],
    ['a short string', { type: 'string', minLength: 2 }, 'é', { path: '', message: 'must be at least 2 characters long, got 1' }],
    ['a long string', { type: 'string', maxLength: 1 }, 'ab', { path: '', message: 'must be at most 1 characters long, got 2' }],
    ['a value below minimum', { type: 'integer', minimum: 1 }, 0, { path: '', message: 'must be greater than or equal to 1, got 0' }],
    ['a value at an exclusive maximum', { type: 'integer', maximum: 5, exclusiveMaximum: true }, 5, { path: '', message: 'must be less than 5, got 5' }],
    ['a non-multiple', { type: 'integer', multipleOf: 5 }, 7, { path: '', message: 'must be a multiple of 5, got 7' }],
    ['a pattern mismatch', { type: 'string', pattern: '^[a-z]+$' }, 'A', { path: '', message: 'must match the pattern ^[a-z]+$, got "A"' }],
    ['a bad quantity', quantity, '1GB', { path: '', message: expect.stringContaining('must match the pattern') as unknown as string }],
    ['a boolean for int-or-string', quantity, true, { path: '', message: 'must be an integer or a string, got boolean' }],
    ['a bad date-time', { type: 'string', format: 'date-time' }, '2024-01-01', { path: '', message: 'must be in date-time format, got "2024-01-01"' }],
    ['a bad byte string', { type: 'string', format: 'byte' }, 'not base64!', { path: '', message: expect.stringContaining('byte format') as unknown as string }],
    // kube-apiserver 1.36.3 refuses both (found by runtime/test/memory/fuzz).
    ['an empty byte string', { type: 'string', format: 'byte' }, '', { path: '', message: expect.stringContaining('byte format') as unknown as string }],
    ['a date-time with a space for T', { type: 'string', format: 'date-time' }, '2024-01-02 03:04:05Z', { path: '', message: 'must be in date-time format, got "2024-01-02 03:04:05Z"' }],
    ['a value outside enum', { type: 'string', enum: ['A', 'B'] }, 'C', { path: '', message: 'must be one of "A", "B", got "C"' }],
    ['too few items', { type: 'array', items: { type: 'string' }, minItems: 1 }, [], { path: '', message: 'must have at least 1 items, got 0' }],
    ['a duplicate set item', { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' }, ['a', 'a'], { path: '[1]', message: 'duplicate item "a"' }],
    [
      'a duplicate list-map key',
      { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['port', 'protocol'], items: { type: 'object' } },
      [{ port: 80, protocol: 'TCP' }, { port: 80, protocol: 'TCP', name: 'x' }],
      { path: '[1]', message: 'duplicate entry for the keys {"port":80,"protocol":"TCP"}' },
    ],
    ['a missing required property', { type: 'object', required: ['name'], properties: { name: { type: 'string' } } }, {}, { path: 'name', message: 'is required' }],
    ['too many properties', { type: 'object', maxProperties: 1, additionalProperties: { type: 'string' } }, { a: 'a', b: 'b' }, { path: '', message: 'must have at most 1 properties, got 2' }],
    ['a bad map value', { type: 'object', additionalProperties: { type: 'string' } }, { a: 1 }, { path: 'a', message: 'must be of type string, got integer' }],
    ['a bad nested item', { type: 'object', properties: { list: { type: 'array', items: { type: 'integer', minimum: 0 } } } }, { list: [1, -1] }, { path: 'list[1]', message: 'must be greater than or equal to 0, got -1' }],
    ['an embedded resource without kind', { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true }, { apiVersion: 'v1' }, { path: 'kind', message: 'is required in an embedded resource' }],
    ['none of anyOf', { type: 'string', anyOf: [{ minLength: 3 }, { pattern: '^x' }] }, 'ab', { path: '', message: expect.stringContaining('must match at least one schema of anyOf') as unknown as string }],
    ['both of oneOf', { type: 'object', oneOf: [{ required: ['a'] }, { required: ['b'] }] }, { a: 1, b: 2 }, { path: '', message: 'must match exactly one schema of oneOf, matches 2' }],
    // The semantics core's checks, which the CLI did not make before it used them.
    ['an int32 out of range', { type: 'object', properties: { n: { type: 'integer', format: 'int32' } } }, { n: 2 ** 31 }, { path: 'n', message: 'must be in int32 format, got 2147483648' }],
    ['the schema in not', { type: 'string', not: { enum: ['x'] } }, 'x', { path: '', message: 'must not match the schema in not' }],
    ['a failing allOf clause', { type: 'string', allOf: [{ maxLength: 1 }] }, 'ab', { path: '', message: 'must be at most 1 characters long, got 2' }],
  ])('rejects %s', (_, schema, value, problem) => {
    expect(validateValue(schema, value)).toContainEqual(problem);
  });

  it('prefixes problems with the given path', () => {
    expect(validateValue({ type: 'integer' }, 'x', 'spec.size')).toEqual([{ path: 'spec.size', message: 'must be of type integer, got string' }]);
  });
});
