import { describe, expect, it } from 'vitest';
import { field, walk } from './walk-helpers.js';

const ok = (type: string, comment: string, prelude = '') => {
  const r = field(type, comment, prelude);
  expect(r.errors).toEqual([]);
  return r.schema!;
};
const errorsOf = (type: string, comment: string, prelude = '') => field(type, comment, prelude).errors.map((e) => e.split(': error: ')[1]);

describe('validation markers', () => {
  it('sets numeric, string, list and object limits', () => {
    expect(ok('int32', '+kubebuilder:validation:Minimum=1\n+kubebuilder:validation:Maximum=65535\n+kubebuilder:validation:ExclusiveMaximum=true\n+kubebuilder:validation:MultipleOf=5')).toMatchObject({
      minimum: 1,
      maximum: 65535,
      exclusiveMaximum: true,
      multipleOf: 5,
    });
    expect(ok('string', '+kubebuilder:validation:MinLength=1\n+kubebuilder:validation:MaxLength=63\n+kubebuilder:validation:Pattern=`^[a-z]+$`\n+kubebuilder:validation:Format=hostname')).toMatchObject({
      minLength: 1,
      maxLength: 63,
      pattern: '^[a-z]+$',
      format: 'hostname',
    });
    expect(ok('string[]', '+kubebuilder:validation:MinItems=1\n+kubebuilder:validation:MaxItems=3\n+kubebuilder:validation:UniqueItems=true')).toMatchObject({ minItems: 1, maxItems: 3, uniqueItems: true });
    expect(ok('Record<string, string>', '+kubebuilder:validation:MinProperties=1\n+kubebuilder:validation:MaxProperties=9')).toMatchObject({ minProperties: 1, maxProperties: 9 });
  });

  it('writes nothing for a flag set to false, as controller-gen (its flags are omitempty)', () => {
    expect(ok('number', '+kubebuilder:validation:Maximum=1\n+kubebuilder:validation:ExclusiveMaximum=false\n+kubebuilder:validation:ExclusiveMinimum=false')).toEqual({ type: 'number', maximum: 1 });
    expect(ok('string[]', '+kubebuilder:validation:UniqueItems=false')).toEqual({ type: 'array', items: { type: 'string' } });
    expect(ok('number', '+kubebuilder:validation:ExclusiveMaximum=false\n@exclusiveMaximum false')).toEqual({ type: 'number' });
    expect(errorsOf('number', '+kubebuilder:validation:ExclusiveMaximum=false\n+kubebuilder:validation:ExclusiveMaximum=true')[0]).toContain('exclusiveMaximum given twice with different values');
  });

  it("gives the runtime's ConditionStatus no enum, as controller-gen for corev1.ConditionStatus", () => {
    expect(ok('ConditionStatus', '', "import type { ConditionStatus } from '@opgen/runtime/api';")).toEqual({ type: 'string' });
  });

  it('accepts the JSDoc tags as the same limits', () => {
    expect(ok('int32', '@minimum 1\n@maximum 10')).toMatchObject({ minimum: 1, maximum: 10 });
  });

  it('applies items: markers to the list items', () => {
    expect(ok('string[]', '+kubebuilder:validation:items:MaxLength=5\n+kubebuilder:validation:items:Pattern=^a')).toEqual({
      type: 'array',
      items: { type: 'string', maxLength: 5, pattern: '^a' },
    });
  });

  it('sets enums, types, formats and int-or-string by marker', () => {
    expect(ok('string', '+kubebuilder:validation:Enum=Low;Medium;High')).toEqual({ type: 'string', enum: ['Low', 'Medium', 'High'] });
    expect(ok('int32', '+kubebuilder:validation:Enum=1;2')).toMatchObject({ enum: [1, 2] });
    expect(ok('string', '+kubebuilder:validation:XIntOrString')).toEqual({ anyOf: [{ type: 'integer' }, { type: 'string' }], 'x-kubernetes-int-or-string': true });
    expect(ok('JSONValue', '+kubebuilder:validation:Type=object')).toEqual({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true });
  });

  it('marks embedded resources, unknown fields kept, nullable, title and external docs', () => {
    expect(ok('RawExtension', '+kubebuilder:validation:EmbeddedResource')).toMatchObject({ type: 'object', 'x-kubernetes-embedded-resource': true });
    expect(ok('{ a?: string }', '+kubebuilder:pruning:PreserveUnknownFields')).toMatchObject({ 'x-kubernetes-preserve-unknown-fields': true });
    expect(ok('string', '+nullable\n+kubebuilder:title=Name\n+kubebuilder:externalDocs:url=https://example.com/doc,description=More')).toEqual({
      type: 'string',
      nullable: true,
      title: 'Name',
      externalDocs: { url: 'https://example.com/doc', description: 'More' },
    });
  });

  it('generates no schema from the type of a Schemaless field', () => {
    expect(ok('any', '+kubebuilder:validation:Schemaless\n+kubebuilder:pruning:PreserveUnknownFields\n+kubebuilder:validation:Type=object')).toEqual({
      type: 'object',
      'x-kubernetes-preserve-unknown-fields': true,
    });
  });

  it('reads defaults and examples as values of the field', () => {
    expect(ok('string', '+kubebuilder:default=1')).toMatchObject({ default: '1' });
    expect(ok('int32', '+kubebuilder:default=3\n+kubebuilder:example=5')).toMatchObject({ default: 3, example: 5 });
    expect(ok('string[]', '+kubebuilder:default={a,b}')).toMatchObject({ default: ['a', 'b'] });
    expect(ok('string[]', '+kubebuilder:default={}')).toMatchObject({ default: [] });
    expect(ok('{ policy?: string; n?: int32 }', '+kubebuilder:default={policy: Delete, n: 2}')).toMatchObject({ default: { policy: 'Delete', n: 2 } });
    expect(ok('{ n?: int32 }', '+default={"n": 2}')).toMatchObject({ default: { n: 2 } });
    expect(ok('string', '@default "x"')).toMatchObject({ default: 'x' });
  });

  it('rejects a default that is not a valid value of the field', () => {
    expect(errorsOf("'a' | 'b'", '+kubebuilder:default=c')[0]).toContain('the default is invalid');
    expect(errorsOf('int32', '@minimum 5\n+kubebuilder:default=2')[0]).toContain('the default is invalid');
  });

  it('adds CEL rules from XValidation, immutability and the one-of markers', () => {
    expect(ok('int32', '+kubebuilder:validation:XValidation:rule="self >= 0",message="must not be negative",reason=FieldValueInvalid')).toMatchObject({
      'x-kubernetes-validations': [{ rule: 'self >= 0', message: 'must not be negative', reason: 'FieldValueInvalid' }],
    });
    expect(ok('string', '+k8s:immutable')).toMatchObject({ 'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'field is immutable' }] });
    // controller-gen v0.21's texts, and its order: XValidation, then AtMostOneOf, ExactlyOneOf, AtLeastOneOf.
    const oneOf = ok(
      '{ a?: string; b?: string; "c-d"?: string }',
      '+kubebuilder:validation:ExactlyOneOf=a;b\n+kubebuilder:validation:AtLeastOneOf=a;b\n+kubebuilder:validation:AtMostOneOf=a;c-d\n+kubebuilder:validation:XValidation:rule="self.size() < 3"',
    );
    expect(oneOf['x-kubernetes-validations']).toEqual([
      { rule: 'self.size() < 3' },
      { rule: '[has(self.a),has(self.c__dash__d)].filter(x,x==true).size() <= 1', message: 'at most one of the fields in [a c-d] may be set' },
      { rule: '[has(self.a),has(self.b)].filter(x,x==true).size() == 1', message: 'exactly one of the fields in [a b] must be set' },
      { rule: '[has(self.a),has(self.b)].filter(x,x==true).size() >= 1', message: 'at least one of the fields in [a b] must be set' },
    ]);
  });

  it('forbids removing an optional immutable field with controller-gen\'s rule on the parent; a required one needs none', () => {
    const walked = ok('Inner', '', 'export interface Inner {\n  /** +k8s:immutable */\n  a?: string;\n  /** +k8s:immutable */\n  b: string;\n  c?: string;\n}');
    expect(walked['x-kubernetes-validations']).toEqual([{ rule: '!has(oldSelf.a) || has(self.a)', message: 'field a is immutable once set' }]);
    expect(walked.properties!.a!['x-kubernetes-validations']).toEqual([{ rule: 'self == oldSelf', message: 'field is immutable' }]);
    expect(walked.properties!.b!['x-kubernetes-validations']).toEqual([{ rule: 'self == oldSelf', message: 'field is immutable' }]);
  });

  it('refuses a one-of over required fields, as controller-gen does', () => {
    expect(errorsOf('{ a: string; b?: string }', '+kubebuilder:validation:ExactlyOneOf=a;b')).toEqual([
      '+kubebuilder:validation:ExactlyOneOf=a;b: a is required, so the constraint cannot hold (make the fields optional (name?: T), as controller-gen requires)',
    ]);
  });

  it('reports a CEL syntax error at its column in the marker', () => {
    const r = field('int32', '+kubebuilder:validation:XValidation:rule="self >= ",message="m"');
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]).toMatch(/^src\/api\/v1\/t\.ts:6:\d+: error: invalid CEL rule: /);
  });

  it('names one-of fields that do not exist', () => {
    expect(errorsOf('{ a?: string }', '+kubebuilder:validation:ExactlyOneOf=a;z')).toEqual(['+kubebuilder:validation:ExactlyOneOf=a;z names z, which is not a field here (fields: a)']);
  });
});

describe('list, map and struct types', () => {
  const item = 'export interface Port { name: string; port: int32; protocol?: string }';

  it('sets list types and list-map keys', () => {
    expect(ok('Port[]', '+listType=map\n+listMapKey=name\n+listMapKey=port', item)).toMatchObject({
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name', 'port'],
    });
    expect(ok('string[]', '+k8s:listType=set')).toMatchObject({ 'x-kubernetes-list-type': 'set' });
    expect(ok('Record<string, string>', '+mapType=atomic')).toMatchObject({ 'x-kubernetes-map-type': 'atomic' });
    expect(ok('Port', '+structType=atomic', item)).toMatchObject({ 'x-kubernetes-map-type': 'atomic' });
  });

  it('rejects list-map keys without listType=map, unknown or optional keys, and a map list without keys', () => {
    expect(errorsOf('Port[]', '+listMapKey=name', item)).toEqual(['+listMapKey=name needs +listType=map (add +listType=map to the same field)']);
    expect(errorsOf('Port[]', '+listType=map', item)).toEqual(['+listType=map needs at least one +listMapKey (add +listMapKey=<field of the items>)']);
    expect(errorsOf('Port[]', '+listType=map\n+listMapKey=nope', item)[0]).toBe('list-map key nope is not a field of the list items (fields: name, port, protocol)');
    expect(errorsOf('Port[]', '+listType=map\n+listMapKey=protocol', item)[0]).toBe('list-map key protocol must be required or have a default (make protocol required in the item type)');
  });
});

describe('markers in the wrong place', () => {
  it('rejects limits on the wrong type', () => {
    expect(errorsOf('string', '+kubebuilder:validation:Minimum=1')).toEqual(['+kubebuilder:validation:Minimum=1 applies to numbers, not to a string (remove the marker or change the type)']);
    expect(errorsOf('int32', '@maxLength 3')).toEqual(['@maxLength 3 applies to strings, not to an integer (remove the marker or change the type)']);
    expect(errorsOf('string', '+listType=set')).toEqual(['+listType=set applies to lists, not to a string (remove the marker or change the type)']);
    expect(errorsOf('int32', '+kubebuilder:validation:Minimum=1.5')[0]).toContain('1.5 is not an integer');
    expect(errorsOf('string', '+kubebuilder:validation:items:MaxLength=3')[0]).toContain('applies to list items, but this is not a list');
  });

  it('rejects markers that belong elsewhere', () => {
    expect(errorsOf('string', '+kubebuilder:subresource:status')).toEqual(['+kubebuilder:subresource:status cannot be used on a property (it belongs on a type)']);
    const r = walk('/** +kubebuilder:printcolumn:name=A,type=string,JSONPath=.a */\nexport interface T { a: string }');
    expect(r.errors[0]).toContain('only applies to a Kind');
    expect(walk('/** +optional */\nexport interface T { a: string }').errors[0]).toContain('+optional cannot be used on a type (it belongs on a property)');
    expect(walk('/** +kubebuilder:validation:Optional */\nexport interface T { a: string }').errors[0]).toContain(
      '+kubebuilder:validation:Optional cannot be used on a type (it belongs in groupversion_info.ts or on a property)',
    );
  });

  it('rejects the same keyword twice with different values, in either spelling', () => {
    expect(errorsOf('int32', '+kubebuilder:validation:Minimum=1\n@minimum 2')).toEqual(['minimum given twice with different values (+kubebuilder:validation:Minimum=1 and @minimum 2) (keep one of them)']);
    expect(errorsOf('string', '+kubebuilder:default=a\n+default="b"')[0]).toContain('default given twice with different values');
  });

  it('rejects patterns the API server cannot run', () => {
    expect(errorsOf('string', '+kubebuilder:validation:Pattern=^(?!x)')[0]).toContain('look-around assertions are not supported');
    expect(errorsOf('string', '+kubebuilder:validation:Pattern=`^[a-z`')[0]).toContain('invalid regular expression');
  });

  it("accepts RE2's spellings JavaScript lacks, as the API server does (kueue's and prometheus-operator's `(?i)`)", () => {
    expect(ok('string', '+kubebuilder:validation:Pattern=`^(?i)(abort|warn)?$`')).toEqual({ type: 'string', pattern: '^(?i)(abort|warn)?$' });
  });

  it('accepts +enum and +k8s:enum on a union of literals', () => {
    expect(walk("/** +k8s:enum */\nexport type T = 'a' | 'b';")).toEqual({ schema: { type: 'string', enum: ['a', 'b'] }, errors: [] });
    expect(walk("/** +enum */\nexport type T = 'a' | 'b';").errors).toEqual([]);
  });

  it('rejects +enum on a type without literal values', () => {
    expect(walk('/** +k8s:enum */\nexport type T = string;').errors[0]).toContain('the type has no literal values to enumerate');
  });
});

describe('named types carry their markers; fields narrow them', () => {
  const prelude = '/**\n * A DNS label.\n * +kubebuilder:validation:MaxLength=63\n * +kubebuilder:validation:Pattern=`^[a-z]+$`\n */\nexport type Label = string;\n/** +kubebuilder:validation:Enum=a;b;c */\nexport type Letter = string;';

  it('keeps the markers of the type where it is used', () => {
    expect(ok('Label', '', prelude)).toEqual({ type: 'string', description: 'A DNS label.', maxLength: 63, pattern: '^[a-z]+$' });
  });

  it('writes a narrower field limit directly, without allOf', () => {
    expect(ok('Label', 'Short.\n@maxLength 10', prelude)).toEqual({ type: 'string', description: 'Short.', maxLength: 10, pattern: '^[a-z]+$' });
    expect(ok('Letter', '+kubebuilder:validation:Enum=a;b', prelude)).toEqual({ type: 'string', enum: ['a', 'b'] });
  });

  it('rejects a field limit that loosens the type, and values that cannot be merged', () => {
    expect(errorsOf('Label', '+kubebuilder:validation:MaxLength=253', prelude)).toEqual([
      "+kubebuilder:validation:MaxLength=253 loosens the type's limit of 63 (a field may only narrow the limits of its type; change the type or the value)",
    ]);
    expect(errorsOf('Label', '+kubebuilder:validation:Pattern=^[a-z0-9]+$', prelude)[0]).toContain('cannot be combined with the type\'s "^[a-z]+$"');
    expect(errorsOf('Letter', '+kubebuilder:validation:Enum=a;z', prelude)[0]).toContain('allows "z", which the type does not');
  });
});

describe('defaults in controller-gen syntax', () => {
  it('reads a list-of-objects default on a list-map by its keys (not as a duplicate key)', () => {
    expect(ok('{ name: string; port?: int32 }[]', '+listType=map\n+listMapKey=name\n+kubebuilder:default={{name: "json"},{name: "search"}}')).toMatchObject({
      'x-kubernetes-list-map-keys': ['name'],
      default: [{ name: 'json' }, { name: 'search' }],
    });
    expect(errorsOf('{ name: string }[]', '+listType=map\n+listMapKey=name\n+kubebuilder:default={{name: "json"},{name: "json"}}')).toEqual([
      '+kubebuilder:default={{name: "json"},{name: "json"}}: the default is invalid: [1] duplicate entry for the keys {"name":"json"} (a default must be a valid value of the field)',
    ]);
  });

  it('reads `:=` as `=`', () => {
    expect(ok("'Allow' | 'Forbid'", '+kubebuilder:default:=Allow')).toMatchObject({ default: 'Allow' });
    expect(ok('string', '+kubebuilder:validation:Enum:=a;b')).toMatchObject({ enum: ['a', 'b'] });
  });
});
