import { describe, expect, it } from 'vitest';
import { errorBody, validateStructural, type SchemaNode } from '../../src/internal/semantics/index.js';

const texts = (errors: ReturnType<typeof validateStructural>) => errors.map((error) => `${error.field}: ${errorBody(error)}`);

/** Junctors as the API server's schema validator checks them on values (each case's wording proven in runtime/test/memory/differential/scenarios/junctors.ts). */
describe('junctors in validateStructural', () => {
  const address: SchemaNode = {
    type: 'object',
    properties: { address: { type: 'object', properties: { ip: { type: 'string' }, host: { type: 'string' } }, oneOf: [{ required: ['ip'] }, { required: ['host'] }] } },
  };

  it("words oneOf with two matches as kube-apiserver 1.36.3 does (STATUS.md's fuzz finding)", () => {
    expect(texts(validateStructural({ address: { ip: '1.2.3.4', host: 'h' } }, address, 'spec', 'spec'))).toEqual([
      '<nil>: Invalid value: "": "spec.address" must validate one and only one schema (oneOf). Found 2 valid alternatives',
    ]);
    expect(validateStructural({ address: { ip: '1.2.3.4' } }, address, 'spec', 'spec')).toEqual([]);
  });

  it('reports the first failing clause of a oneOf that none validates, beside the note', () => {
    expect(texts(validateStructural({ address: {} }, address, 'spec', 'spec'))).toEqual([
      '<nil>: Invalid value: "": "spec.address" must validate one and only one schema (oneOf). Found none valid',
      'spec.address.ip: Required value',
    ]);
  });

  it('reports the failing clause on which more validators ran', () => {
    // The second clause reaches into `a` (its own validators count), the first does not.
    const schema: SchemaNode = {
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'string' } },
      anyOf: [{ required: ['b'] }, { properties: { a: { minLength: 3 } } }],
    };
    expect(texts(validateStructural({ a: 'x' }, schema))).toEqual([
      '<nil>: Invalid value: "": "" must validate at least one schema (anyOf)',
      'a: Invalid value: "x": a in body should be at least 3 chars long',
    ]);
  });

  it('checks anyOf, allOf and not at any depth, and leaves int-or-string to the type check', () => {
    const schema: SchemaNode = {
      type: 'array',
      items: { type: 'string', anyOf: [{ minLength: 3 }, { pattern: '^x' }], allOf: [{ maxLength: 4 }], not: { enum: ['xx'] } },
    };
    expect(texts(validateStructural(['abc', 'ab', 'abcde', 'xx'], schema))).toEqual([
      '<nil>: Invalid value: "": "[1]" must validate at least one schema (anyOf)',
      '[1]: Invalid value: "ab": [1] in body should be at least 3 chars long',
      '[2]: Too long: may not be more than 4 bytes',
      '<nil>: Invalid value: "": "[2]" must validate all the schemas (allOf). None validated',
      '<nil>: Invalid value: "": "[3]" must not validate the schema (not)',
    ]);
    // int-or-string's anyOf is reported with the type error, once; on null only the type error (no junctor runs on null).
    const intOrString: SchemaNode = { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] };
    expect(texts(validateStructural(true, intOrString, 'p', 'p'))).toEqual([
      'p: Invalid value: "boolean": p in body must be of type integer,string: "boolean"',
      '<nil>: Invalid value: "": "p" must validate at least one schema (anyOf)',
      'p: Invalid value: "boolean": p in body must be of type integer: "boolean"',
    ]);
    expect(texts(validateStructural(null, intOrString, 'p', 'p'))).toEqual(['p: Invalid value: "null": p in body must be of type integer,string: "null"']);
    expect(validateStructural('5%', intOrString, 'p', 'p')).toEqual([]);
  });

  it('reports an error once when a clause and its node both find it', () => {
    const schema: SchemaNode = { type: 'object', required: ['a'], properties: { a: { type: 'string' } }, allOf: [{ required: ['a'] }] };
    expect(texts(validateStructural({}, schema))).toEqual(['a: Required value', '<nil>: Invalid value: "": "" must validate all the schemas (allOf). None validated']);
  });

  it('checks no junctor on null, and none of an unchanged node on update', () => {
    const schema: SchemaNode = { type: 'object', properties: { o: { type: 'object', nullable: true, oneOf: [{ required: ['a'] }, { required: ['b'] }] } } };
    expect(validateStructural({ o: null }, schema)).toEqual([]);
    expect(validateStructural({ o: {} }, schema, '', '', { o: {} })).toEqual([]);
    expect(texts(validateStructural({ o: { c: 1 } }, schema, '', '', { o: {} }))).toContain('<nil>: Invalid value: "": "o" must validate one and only one schema (oneOf). Found none valid');
  });

  it('reports the notes of a status validated on its own at status', () => {
    const schema: SchemaNode = { type: 'object', not: { required: ['x'] } };
    expect(texts(validateStructural({ x: 1 }, schema, 'status', ''))).toEqual(['status: Invalid value: "": "" must not validate the schema (not)']);
  });
});
