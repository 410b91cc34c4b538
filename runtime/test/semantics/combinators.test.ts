import { describe, expect, it } from 'vitest';
import { errorBody, validateCombinators, type SchemaNode } from '../../src/internal/semantics/index.js';

const texts = (errors: ReturnType<typeof validateCombinators>) => errors.map((error) => `${error.field}: ${errorBody(error)}`);

describe('validateCombinators', () => {
  const address: SchemaNode = {
    type: 'object',
    properties: { address: { type: 'object', properties: { ip: { type: 'string' }, host: { type: 'string' } }, oneOf: [{ required: ['ip'] }, { required: ['host'] }] } },
  };

  it("words oneOf with two matches as kube-apiserver 1.36.3 does (STATUS.md's fuzz finding)", () => {
    expect(texts(validateCombinators({ address: { ip: '1.2.3.4', host: 'h' } }, address, 'spec'))).toEqual([
      '<nil>: Invalid value: "": "spec.address" must validate one and only one schema (oneOf). Found 2 valid alternatives',
    ]);
    expect(validateCombinators({ address: { ip: '1.2.3.4' } }, address, 'spec')).toEqual([]);
  });

  it('checks anyOf, allOf and not at any depth, and leaves int-or-string to the type check', () => {
    const schema: SchemaNode = {
      type: 'array',
      items: { type: 'string', anyOf: [{ minLength: 3 }, { pattern: '^x' }], allOf: [{ maxLength: 4 }], not: { enum: ['xx'] } },
    };
    expect(texts(validateCombinators(['abc', 'ab', 'abcde', 'xx'], schema))).toEqual([
      '<nil>: Invalid value: "": "[1]" must validate at least one schema (anyOf)',
      '[2]: Too long: may not be more than 4 bytes',
      '<nil>: Invalid value: "": "[2]" must validate all the schemas (allOf)',
      '<nil>: Invalid value: "": "[3]" must not validate the schema (not)',
    ]);
    const intOrString: SchemaNode = { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] };
    expect(validateCombinators(true, intOrString)).toEqual([]);
  });
});
