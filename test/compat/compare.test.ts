import { describe, expect, it } from 'vitest';
import { compareSchemas } from '../../src/compat/compare-schema.js';
import type { JSONSchemaProps } from '../../src/schema/types.js';

// Cases of the rule set the CLI test (test/manifests/compat.test.ts) cannot reach from
// TypeScript markers in one step, checked on schemas directly.

const rules = (before: JSONSchemaProps, after: JSONSchemaProps) => compareSchemas(before, after).map((c) => `${c.path}:${c.rule}`);
const obj = (properties: Record<string, JSONSchemaProps>, extra: Partial<JSONSchemaProps> = {}): JSONSchemaProps => ({ type: 'object', properties, ...extra });

describe('compareSchemas', () => {
  it('an exclusive bound at the same value is a tightening; dropping exclusiveness a loosening', () => {
    expect(rules(obj({ n: { type: 'integer', minimum: 1 } }), obj({ n: { type: 'integer', minimum: 1, exclusiveMinimum: true } }))).toEqual(['n:minimum-tightened']);
    expect(rules(obj({ n: { type: 'integer', maximum: 5, exclusiveMaximum: true } }), obj({ n: { type: 'integer', maximum: 5 } }))).toEqual(['n:bound-loosened']);
  });

  it('uniqueItems added breaks lists with repeats; an enum dropped accepts more', () => {
    expect(rules(obj({ l: { type: 'array', items: { type: 'string' } } }), obj({ l: { type: 'array', uniqueItems: true, items: { type: 'string' } } }))).toEqual(['l:unique-items-added']);
    expect(rules(obj({ e: { type: 'string', enum: ['a'] } }), obj({ e: { type: 'string' } }))).toEqual(['e:enum-extended']);
  });

  it('walks list items and map values; a changed type hides what lies below it', () => {
    expect(rules(obj({ l: { type: 'array', items: obj({ x: { type: 'string' } }) } }), obj({ l: { type: 'array', items: obj({}) } }))).toEqual(['l[*].x:field-removed']);
    expect(rules(obj({ m: { type: 'object', additionalProperties: { type: 'string', maxLength: 5 } } }), obj({ m: { type: 'object', additionalProperties: { type: 'string', maxLength: 3 } } }))).toEqual(['m[*]:max-length-tightened']);
    expect(rules(obj({ s: obj({ a: { type: 'string' } }) }), obj({ s: { type: 'string' } }))).toEqual(['s:type-changed']);
  });

  it('a field under x-kubernetes-preserve-unknown-fields keeps its data when its schema goes', () => {
    expect(rules(obj({ x: { type: 'string' } }, { 'x-kubernetes-preserve-unknown-fields': true }), obj({}, { 'x-kubernetes-preserve-unknown-fields': true }))).toEqual([]);
  });

  it('a CEL rule whose message changes is the same rule; one whose text changes is removed and added', () => {
    expect(rules(obj({}, { 'x-kubernetes-validations': [{ rule: 'true', message: 'a' }] }), obj({}, { 'x-kubernetes-validations': [{ rule: 'true', message: 'b' }] }))).toEqual([]);
    expect(rules(obj({}, { 'x-kubernetes-validations': [{ rule: 'true' }] }), obj({}, { 'x-kubernetes-validations': [{ rule: '1 == 1' }] }))).toEqual([':validation-rule-removed', ':validation-rule-added']);
  });
});
