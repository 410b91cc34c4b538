import { describe, expect, it } from 'vitest';
import { quantityPattern } from '../../src/schema/builtins/known.js';
import { field, walk } from './walk-helpers.js';

const ok = (type: string, prelude = '') => {
  const r = field(type, '', prelude);
  expect(r.errors).toEqual([]);
  return r.schema;
};

describe('TypeScript types → OpenAPI', () => {
  it('maps the primitives', () => {
    expect(ok('string')).toEqual({ type: 'string' });
    expect(ok('boolean')).toEqual({ type: 'boolean' });
    expect(ok('number')).toEqual({ type: 'number' });
  });

  it('maps the runtime integer types', () => {
    expect(ok('int32')).toEqual({ type: 'integer', format: 'int32' });
    expect(ok('int64')).toEqual({ type: 'integer', format: 'int64' });
    expect(ok('integer')).toEqual({ type: 'integer' });
  });

  it('maps Quantity and IntOrString to int-or-string', () => {
    expect(ok('Quantity')).toEqual({ anyOf: [{ type: 'integer' }, { type: 'string' }], 'x-kubernetes-int-or-string': true, pattern: quantityPattern });
    expect(ok('IntOrString')).toEqual({ anyOf: [{ type: 'integer' }, { type: 'string' }], 'x-kubernetes-int-or-string': true });
    expect(ok('number | string')).toEqual({ anyOf: [{ type: 'integer' }, { type: 'string' }], 'x-kubernetes-int-or-string': true });
  });

  it('maps times, durations and bytes to strings', () => {
    expect(ok('Time')).toEqual({ type: 'string', format: 'date-time' });
    expect(ok('MicroTime')).toEqual({ type: 'string', format: 'date-time' });
    expect(ok('Duration')).toEqual({ type: 'string' });
    expect(ok('Bytes')).toEqual({ type: 'string', format: 'byte' });
  });

  it('keeps RawExtension, JSONValue and unknown as they are', () => {
    expect(ok('RawExtension')).toEqual({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true });
    expect(ok('JSONValue')).toEqual({ 'x-kubernetes-preserve-unknown-fields': true });
    expect(ok('unknown')).toEqual({ 'x-kubernetes-preserve-unknown-fields': true });
  });

  it('keeps name, namespace, labels, annotations and finalizers of an embedded ObjectMeta', () => {
    expect(Object.keys(ok('ObjectMeta')!.properties!).sort()).toEqual(['annotations', 'finalizers', 'labels', 'name', 'namespace']);
  });

  it('inlines Kubernetes built-in types, with an embedded ObjectMeta that keeps its labels', () => {
    const template = ok('V1PodTemplateSpec')!;
    expect(template.properties!.metadata!.properties!.labels).toMatchObject({ type: 'object', additionalProperties: { type: 'string' } });
    expect(template.properties!.spec!.properties!.containers!.type).toBe('array');
    expect(ok('Condition')!.required).toEqual(['lastTransitionTime', 'message', 'reason', 'status', 'type']);
    expect(ok('ObjectReference')!.properties!.kind).toMatchObject({ type: 'string' });
    expect(ok('LocalObjectReference')!.properties!.name).toMatchObject({ type: 'string' });
    expect(ok('V1ResourceRequirements')!.properties!.limits!.additionalProperties).toMatchObject({ 'x-kubernetes-int-or-string': true });
  });

  it('maps every array spelling', () => {
    for (const t of ['string[]', 'Array<string>', 'readonly string[]', 'ReadonlyArray<string>']) {
      expect(ok(t), t).toEqual({ type: 'array', items: { type: 'string' } });
    }
  });

  it('maps records and string index signatures to additionalProperties', () => {
    expect(ok('Record<string, int32>')).toEqual({ type: 'object', additionalProperties: { type: 'integer', format: 'int32' } });
    expect(ok('{ [key: string]: string }')).toEqual({ type: 'object', additionalProperties: { type: 'string' } });
    expect(ok("Record<'a' | 'b', boolean>")).toEqual({ type: 'object', properties: { a: { type: 'boolean' }, b: { type: 'boolean' } }, required: ['a', 'b'] });
  });

  it('maps string literal unions and string enums to enums', () => {
    expect(ok("'Always' | 'IfNotPresent' | 'Never'")).toEqual({ type: 'string', enum: ['Always', 'IfNotPresent', 'Never'] });
    expect(ok('Policy', "export enum Policy { Always = 'Always', Never = 'Never' }")).toEqual({ type: 'string', enum: ['Always', 'Never'] });
    expect(ok("Level | 'Other'", "export type Level = 'Low' | 'High';")).toEqual({ type: 'string', enum: ['Low', 'High', 'Other'] });
  });

  it('maps integer literal unions and numeric enums to integer enums', () => {
    expect(ok('1 | 2 | 3')).toEqual({ type: 'integer', enum: [1, 2, 3] });
    expect(ok('Size', 'export enum Size { Small, Large = 10, Huge }')).toEqual({ type: 'integer', enum: [0, 10, 11] });
  });

  it('maps T | null to a nullable T', () => {
    expect(ok('string | null')).toEqual({ type: 'string', nullable: true });
  });

  it('maps object types, flattening extends and intersections', () => {
    const prelude = 'export interface A { a: string }\nexport interface B { b?: int32 }\nexport interface C extends A, B { c: boolean }';
    const expected = { type: 'object', properties: { a: { type: 'string' }, b: { type: 'integer', format: 'int32' }, c: { type: 'boolean' } }, required: ['a', 'c'] };
    expect(ok('C', prelude)).toEqual(expected);
    expect(ok('A & B & { c: boolean }', prelude)).toEqual(expected);
    expect(ok('{ x: string; y?: string }')).toEqual({ type: 'object', properties: { x: { type: 'string' }, y: { type: 'string' } }, required: ['x'] });
  });

  it('instantiates generic interfaces', () => {
    const prelude = 'export interface Page<Item, Token = string> { items: Item[]; next?: Token }\nexport interface Entry { id: int64 }';
    expect(ok('Page<Entry>', prelude)).toEqual({
      type: 'object',
      properties: { items: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer', format: 'int64' } }, required: ['id'] } }, next: { type: 'string' } },
      required: ['items'],
    });
    expect(ok('Page<string, int32>', prelude)!.properties!.next).toEqual({ type: 'integer', format: 'int32' });
  });

  it('applies Partial, Required, Pick and Omit', () => {
    const prelude = 'export interface A { a: string; b?: string; c: string }';
    expect(ok('Partial<A>', prelude)!.required).toBeUndefined();
    expect(ok('Required<A>', prelude)!.required).toEqual(['a', 'b', 'c']);
    expect(Object.keys(ok("Pick<A, 'a' | 'b'>", prelude)!.properties!)).toEqual(['a', 'b']);
    expect(ok("Omit<A, 'a'>", prelude)).toMatchObject({ properties: { b: {}, c: {} }, required: ['c'] });
  });

  it('reads types from other API files through imports and re-exports', () => {
    const r = walk("import { Shared } from '../common/index.js';\nexport interface T { s: Shared }", 'T', {
      files: {
        'src/api/common/index.ts': "export * from './shared.js';",
        'src/api/common/shared.ts': '/** Shared is used by several kinds. */\nexport interface Shared { x: string }',
      },
    });
    expect(r.errors).toEqual([]);
    expect(r.schema.properties!.s).toEqual({ type: 'object', description: 'Shared is used by several kinds.', properties: { x: { type: 'string' } }, required: ['x'] });
  });
});

describe('required and optional', () => {
  const props = (source: string, optionalByDefault = false) => walk(source, 'T', { optionalByDefault }).schema.required;

  it('makes a property without ? required and one with ? or | undefined optional', () => {
    expect(props('export interface T { a: string; b?: string; c: string | undefined }')).toEqual(['a']);
  });

  it('lets +optional, +required and their other spellings override', () => {
    const source = [
      'export interface T {',
      '  /** +optional */ a: string;',
      '  /** +kubebuilder:validation:Optional */ b: string;',
      '  /** +k8s:optional */ c: string;',
      '  /** +required */ d?: string;',
      '  /** +k8s:required */ e?: string;',
      '}',
    ].join('\n');
    expect(props(source)).toEqual(['d', 'e']);
  });

  it('makes properties optional unless marked required when the version folder says +kubebuilder:validation:Optional', () => {
    expect(props('export interface T {\n  a: string;\n  /** +kubebuilder:validation:Required */\n  b: string;\n}', true)).toEqual(['b']);
  });
});

describe('descriptions', () => {
  it('takes the field text over the type text, and the type text when the field has none', () => {
    const r = walk('/** Name is a DNS label. */\nexport type Name = string;\nexport interface T {\n  /** The name of the thing. */\n  a: Name;\n  b: Name;\n}');
    expect(r.schema.properties!.a!.description).toBe('The name of the thing.');
    expect(r.schema.properties!.b!.description).toBe('Name is a DNS label.');
  });

  it('drops the descriptions of a field marked +kubebuilder:skip:description', () => {
    const r = field('{ /** inner */ x: string }', 'outer\n+kubebuilder:skip:description');
    expect(r.schema).toEqual({ type: 'object', properties: { x: { type: 'string' } }, required: ['x'] });
  });
});
