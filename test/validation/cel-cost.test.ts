import { describe, expect, it } from 'vitest';
import type { JSONSchemaProps } from '../../src/schema/types.js';
import { checkCelTypes } from '@opgen/runtime/internal/cel';

// The cost estimate without an API server: the numbers a user reads and the bound they are
// told to add (cel-cost.integration.test.ts proves the verdicts against kube-apiserver).

const root = (spec: JSONSchemaProps): JSONSchemaProps => ({ type: 'object', properties: { spec } });
const string = (extra: Partial<JSONSchemaProps> = {}): JSONSchemaProps => ({ type: 'string', ...extra });

describe('CEL cost budget', () => {
  it('costs all() per item: 3 + 6 per item, so 1,666,666 items fit in 10 million and one more does not', () => {
    const spec = (maxItems: number) => root({ type: 'object', 'x-kubernetes-validations': [{ rule: 'self.tags.all(t, t.size() > 1)' }], properties: { tags: { type: 'array', maxItems, items: string({ maxLength: 10 }) } } });
    expect(checkCelTypes(spec(1_666_666))).toEqual([]);
    const problems = checkCelTypes(spec(1_666_667));
    expect(problems.map((p) => [p.path, p.field, p.message, p.hint])).toEqual([
      ['spec', 'rule', "the API server's estimated cost of this rule is 10,000,005, over its budget of 10,000,000 per rule by factor of 1.000001x", 'simplify the rule, or lower the maxItems, maxProperties or maxLength of what it reads'],
    ]);
  });

  it('names the unbounded string to give a maxLength, not the bounded one', () => {
    const spec = (maxLength: number) => root({ type: 'object', 'x-kubernetes-validations': [{ rule: 'self.name.contains(self.short)' }], properties: { name: string(), short: string({ maxLength }) } });
    // 314,573 (a tenth of the largest string in a request) times a tenth of 4 × maxLength.
    expect(checkCelTypes(spec(64))).toEqual([]);
    const problems = checkCelTypes(spec(100));
    expect(problems.map((p) => [p.message, p.hint])).toEqual([
      [
        "the API server's estimated cost of this rule is 12,582,924, over its budget of 10,000,000 per rule by factor of 1.258292x",
        'bound what the rule reads, or simplify it: add maxLength on spec.name (+kubebuilder:validation:MaxLength on spec.name)',
      ],
    ]);
  });

  it('multiplies a rule on list items by how many items there may be, and names the list to bound', () => {
    const items: JSONSchemaProps = { type: 'object', required: ['name'], 'x-kubernetes-validations': [{ rule: "self.name.contains('a')" }], properties: { name: string({ maxLength: 1000 }) } };
    const problems = checkCelTypes(root({ type: 'object', properties: { items: { type: 'array', items } } }));
    // 241,979 items of at least {"name":""} fit in a 3 MiB request.
    expect(problems.map((p) => [p.path, p.message, p.hint])).toEqual([
      [
        'spec.items[*]',
        "the API server's estimated cost of this rule is 97,275,558 (402 per run, up to 241,979 runs per object), over its budget of 10,000,000 per rule by factor of 9.7x",
        'bound what the rule reads, or simplify it: add maxItems on spec.items (+kubebuilder:validation:MaxItems on spec.items)',
      ],
    ]);
    expect(checkCelTypes(root({ type: 'object', properties: { items: { type: 'array', maxItems: 100, items } } }))).toEqual([]);
  });

  it('refuses a version whose rules together are over 100 million, at its four largest contributors', () => {
    const lists = (n: number) =>
      Object.fromEntries(Array.from({ length: n }, (_, i) => [`l${i}`, { type: 'array', maxItems: 1_500_000, 'x-kubernetes-validations': [{ rule: 'self.all(t, t > 0)' }], items: { type: 'integer' } } as JSONSchemaProps]));
    expect(checkCelTypes(root({ type: 'object', properties: lists(13) }))).toEqual([]);
    const problems = checkCelTypes(root({ type: 'object', properties: lists(14) }));
    expect(problems.map((p) => p.path)).toEqual(['spec.l0', 'spec.l1', 'spec.l2', 'spec.l3']);
    expect(problems[0]!.message).toBe("its estimated cost 7,500,002 is part of this version's CEL cost total of 105,000,028, over the API server's budget of 100,000,000 per CRD version by factor of 1.050000x");
  });
});
