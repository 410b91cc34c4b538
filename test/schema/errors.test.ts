import { describe, expect, it } from 'vitest';
import { apiImports, field, walk } from './walk-helpers.js';

const importLines = apiImports.split('\n').length - 1;
// `field()` puts the property type on line 3 of its source, after the imports and `export interface T {`.
const fieldLine = importLines + 3;
const column = '  f: '.length + 1;

function only(type: string, prelude = ''): string {
  const { errors } = field(type, '', prelude);
  expect(errors).toHaveLength(1);
  return errors[0]!;
}

describe('types that have no schema are located errors with a hint', () => {
  it.each([
    ['any', '`any` has no schema (use `unknown` or JSONValue to keep any value as it is, or a real type)'],
    ['object', '`object` has no schema (use an interface, or Record<string, T> for a map)'],
    ['Function', 'functions cannot be part of an API type (API types describe JSON data)'],
    ['() => void', 'functions cannot be part of an API type (API types describe JSON data)'],
    ['symbol', '`symbol` cannot be sent as JSON (use a string)'],
    ['bigint', '`bigint` cannot be sent as JSON (use int64, or Quantity for large amounts)'],
    ['[string, int32]', 'tuple [string, int32] cannot be mapped to a schema (use an array (T[]) or an interface with named fields)'],
    ['Date', '`Date` is not JSON (use Time from @opgen/runtime/api (an RFC 3339 string))'],
    ['Map<string, string>', '`Map` is not JSON (use Record<string, T>)'],
    ['Set<string>', '`Set` is not JSON (use T[] with +listType=set)'],
    ['string | boolean', 'union string | boolean of unrelated types cannot be mapped to a schema (use one type (IntOrString for number | string))'],
    ['Missing', 'cannot find type Missing (declare it in src/api, or import it from @opgen/runtime/api or @kubernetes/client-node)'],
  ])('%s', (type, message) => {
    expect(only(type)).toBe(`src/api/v1/t.ts:${fieldLine}:${column}: error: ${message}`);
  });

  it('rejects unions of object types', () => {
    expect(only('A | B', 'export interface A { a: string }\nexport interface B { b: string }')).toContain(
      'union A | B of object types cannot be mapped to a schema (use one interface with optional fields and +kubebuilder:validation:ExactlyOneOf)',
    );
  });

  it('rejects map keys that are not strings', () => {
    expect(only('Record<number, string>')).toContain('map keys must be strings, not number');
    expect(only('{ [n: number]: string }')).toContain('index signature keys must be strings, not number');
  });

  it('rejects types imported from packages opgen does not read', () => {
    const r = walk("import type { Foo } from 'some-lib';\nexport interface T { f: Foo }");
    expect(r.errors[0]).toContain("type Foo from 'some-lib' cannot be read");
  });

  it('shows the cycle of a recursive type', () => {
    const r = walk('export interface Node {\n  name: string;\n  children: Node[];\n}', 'Node');
    expect(r.errors).toEqual([
      `src/api/v1/t.ts:${importLines + 3}:13: error: recursive type: Node.children[] -> Node (a CRD schema cannot refer to itself; refer by name, or hold the nested value as JSONValue)`,
    ]);
  });

  it('shows a cycle through several types', () => {
    const r = walk('export interface A { b?: B }\nexport interface B { items: Record<string, A> }', 'A');
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]).toContain('recursive type: A.b -> B.items{} -> A');
  });

  it('reports every error of a type in one pass', () => {
    const r = walk('export interface T {\n  a: any;\n  b: Date;\n  /** +kubebuilder:validation:Minimum=1 */\n  c: string;\n}');
    expect(r.errors.map((e) => e.split(': error: ')[1])).toEqual([
      '`any` has no schema (use `unknown` or JSONValue to keep any value as it is, or a real type)',
      '`Date` is not JSON (use Time from @opgen/runtime/api (an RFC 3339 string))',
      '+kubebuilder:validation:Minimum=1 applies to numbers, not to a string (remove the marker or change the type)',
    ]);
  });
});
