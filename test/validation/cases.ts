/**
 * Schemas, defaults and CEL rules opgen rejects. The unit tests check the message and the
 * path; the API-server test checks that a real kube-apiserver rejects every one of them.
 */
import type { JSONSchemaProps } from '../../src/schema/types.js';

const intOrString: JSONSchemaProps = { anyOf: [{ type: 'integer' }, { type: 'string' }], 'x-kubernetes-int-or-string': true };

/** A `spec` using every construct CRDs allow: checkStructural and the API server accept it. */
export const acceptedSpec: JSONSchemaProps = {
  type: 'object',
  description: 'DemoVolumeSpec defines the desired state',
  required: ['name'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 63, pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$' },
    size: { type: 'integer', format: 'int32', minimum: 1, default: 1 },
    labels: { type: 'object', additionalProperties: { type: 'string' } },
    port: intOrString,
    storage: {
      ...intOrString,
      pattern: '^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$',
    },
    raw: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
    anything: { 'x-kubernetes-preserve-unknown-fields': true },
    template: {
      type: 'object',
      'x-kubernetes-embedded-resource': true,
      properties: { apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: { type: 'object' } },
    },
    ports: {
      type: 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['containerPort', 'protocol'],
      items: {
        type: 'object',
        required: ['containerPort'],
        properties: { containerPort: { type: 'integer' }, protocol: { type: 'string', default: 'TCP' } },
      },
    },
    tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
    selector: { type: 'object', 'x-kubernetes-map-type': 'atomic', properties: { a: { type: 'string' } } },
    oneOfThem: {
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'string' } },
      oneOf: [{ required: ['a'] }, { required: ['b'] }],
      'x-kubernetes-validations': [{ rule: 'has(self.a) != has(self.b)' }],
    },
    allOfIntOrString: {
      'x-kubernetes-int-or-string': true,
      allOf: [{ anyOf: [{ type: 'integer' }, { type: 'string' }] }, { pattern: '^\\d+%?$' }],
    },
  },
};

/** `[what, spec schema, path, message]`: a CRD whose `spec` is the schema fails checkStructural. */
export const structuralRejections: [string, JSONSchemaProps, string, string][] = [
  ['a field without a type', { type: 'object', properties: { size: { minimum: 1 } } }, 'spec.size', 'must have a type'],
  ['array items without a type', { type: 'array', items: { description: 'x' } }, 'spec[*]', 'array items must have a type'],
  ['an array without items', { type: 'array' }, 'spec', 'an array must specify items'],
  ['a $ref', { type: 'object', properties: { a: { $ref: '#/definitions/A' } as JSONSchemaProps } }, 'spec.a', '$ref is not allowed in a CRD schema (inline'],
  ['definitions', { type: 'object', definitions: { A: { type: 'string' } } } as JSONSchemaProps, 'spec', 'definitions is not allowed'],
  [
    'properties beside additionalProperties',
    { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: { type: 'string' } },
    'spec',
    'properties and additionalProperties exclude each other',
  ],
  ['a type inside anyOf', { type: 'object', anyOf: [{ type: 'object' }, { type: 'string' }] }, 'spec', 'anyOf[0]: type is not allowed inside'],
  ['a description inside allOf', { type: 'string', allOf: [{ description: 'x' }] }, 'spec', 'allOf[0]: description is not allowed'],
  ['a default inside oneOf', { type: 'string', oneOf: [{ default: 'a' }] }, 'spec', 'oneOf[0]: default is not allowed'],
  ['nullable inside not', { type: 'string', not: { nullable: true } }, 'spec', 'not: nullable is not allowed'],
  ['additionalProperties inside anyOf', { type: 'object', anyOf: [{ additionalProperties: { type: 'string' } }] }, 'spec', 'anyOf[0]: additionalProperties is not allowed'],
  ['a list type inside allOf', { type: 'array', items: { type: 'string' }, allOf: [{ 'x-kubernetes-list-type': 'set' }] }, 'spec', 'x-kubernetes-list-type is not allowed inside'],
  ['a CEL rule inside anyOf', { type: 'string', anyOf: [{ 'x-kubernetes-validations': [{ rule: 'true' }] }] }, 'spec', 'x-kubernetes-validations is not allowed inside'],
  [
    'a type deep inside an anyOf clause',
    { type: 'object', properties: { a: { type: 'string' } }, anyOf: [{ properties: { a: { type: 'string' } } }] },
    'spec',
    'anyOf[0].properties.a: type is not allowed',
  ],
  [
    'a property only specified in anyOf',
    { type: 'object', properties: { a: { type: 'string' } }, anyOf: [{ required: ['b'], properties: { b: { minLength: 1 } } }] },
    'spec.b',
    'is restricted in anyOf[0] but not specified in properties',
  ],
  ['int-or-string anyOf with extra keywords', { anyOf: [{ type: 'integer', minimum: 1 }, { type: 'string' }], 'x-kubernetes-int-or-string': true }, 'spec', 'anyOf[0]: type is not allowed'],
  ['int-or-string with preserve-unknown-fields', { 'x-kubernetes-int-or-string': true, 'x-kubernetes-preserve-unknown-fields': true }, 'spec', 'exclude each other'],
  ['an embedded resource that is not an object', { type: 'string', 'x-kubernetes-embedded-resource': true }, 'spec', 'requires type: object'],
  ['an embedded resource without properties', { type: 'object', 'x-kubernetes-embedded-resource': true }, 'spec', 'needs properties or x-kubernetes-preserve-unknown-fields'],
  [
    'an embedded resource whose kind is not a string',
    { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { kind: { type: 'integer' } } },
    'spec.kind',
    'must have type string',
  ],
  ['preserve-unknown-fields: false', { type: 'object', 'x-kubernetes-preserve-unknown-fields': false }, 'spec', 'must be true or absent'],
  ['uniqueItems', { type: 'array', items: { type: 'string' }, uniqueItems: true }, 'spec', 'uniqueItems is not allowed'],
  ['an invalid pattern', { type: 'string', pattern: '([a-z]' }, 'spec', 'pattern is not a valid regular expression'],
  ['a lookahead, which RE2 lacks', { type: 'string', pattern: '^(?!kube-).*$' }, 'spec', 'error parsing regexp: invalid or unsupported Perl syntax: `(?!`'],
  ['a list type on an object', { type: 'object', 'x-kubernetes-list-type': 'set' }, 'spec', 'x-kubernetes-list-type may only be used on arrays'],
  ['an unknown list type', { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'bag' as 'set' }, 'spec', 'must be atomic, set or map'],
  ['a map type on an array', { type: 'array', items: { type: 'string' }, 'x-kubernetes-map-type': 'atomic' }, 'spec', 'x-kubernetes-map-type may only be used on objects'],
  ['list-map keys without a map list', { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-map-keys': ['a'] }, 'spec', 'may only be used with x-kubernetes-list-type: map'],
  [
    'a map list without keys',
    { type: 'array', 'x-kubernetes-list-type': 'map', items: { type: 'object', properties: { a: { type: 'string' } } } },
    'spec',
    'needs x-kubernetes-list-map-keys',
  ],
  [
    'a map list of strings',
    { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['a'], items: { type: 'string' } },
    'spec',
    'items of a list with x-kubernetes-list-type: map must be objects',
  ],
  [
    'a map-list key that is optional without default',
    {
      type: 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name', 'protocol'],
      items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, protocol: { type: 'string' } } },
    },
    'spec',
    'entry protocol must be required or have a default',
  ],
  [
    'a map-list key that is not a property',
    { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['id'], items: { type: 'object', properties: { name: { type: 'string' } } } },
    'spec',
    'entry id is not a property of the items',
  ],
  [
    'a map-list key that is an object',
    {
      type: 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['ref'],
      items: { type: 'object', required: ['ref'], properties: { ref: { type: 'object' } } },
    },
    'spec',
    'entry ref must be a scalar property',
  ],
  [
    'a set of granular objects',
    { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'object', properties: { a: { type: 'string' } } } },
    'spec',
    'must have x-kubernetes-map-type: atomic',
  ],
  [
    'a set of set lists',
    { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } } },
    'spec',
    'must be scalars or atomic lists',
  ],
  [
    'nullable items of a set',
    { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string', nullable: true } },
    'spec',
    'items of a list with x-kubernetes-list-type: set must not be nullable',
  ],
  [
    'a nullable map-list key',
    {
      type: 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
      items: { type: 'object', required: ['name'], properties: { name: { type: 'string', nullable: true } } },
    },
    'spec',
    'entry name must not be nullable',
  ],
  ['an empty CEL rule', { type: 'object', 'x-kubernetes-validations': [{ rule: '  ' }] }, 'spec', 'x-kubernetes-validations[0]: the rule is empty'],
  [
    'a CEL message of two lines',
    { type: 'object', 'x-kubernetes-validations': [{ rule: 'true', message: 'one\ntwo' }] },
    'spec',
    'x-kubernetes-validations[0]: the message must be one line',
  ],
  [
    'a CEL rule of two lines without a message',
    { type: 'object', 'x-kubernetes-validations': [{ rule: 'true &&\ntrue' }] },
    'spec',
    'x-kubernetes-validations[0]: a rule of several lines needs a message',
  ],
];

/**
 * Rejections where opgen is stricter than the API server, which accepts these schemas:
 * a junctor that restricts a property the schema does not specify is only checked at the
 * root there (the property is pruned, so the restriction can never apply).
 */
export const stricterThanApiServer: ReadonlySet<string> = new Set(['a property only specified in anyOf']);

/** `[what, schema of spec.x, path, message]`: checkDefaults reports the default. */
export const defaultRejections: [string, JSONSchemaProps, string, string][] = [
  ['of the wrong type', { type: 'integer', default: '1' }, 'spec.x', 'default "1" is invalid: must be of type integer, got string'],
  ['below the minimum', { type: 'integer', minimum: 1, default: 0 }, 'spec.x', 'default 0 is invalid: must be greater than or equal to 1, got 0'],
  ['outside the enum', { type: 'string', enum: ['A'], default: 'B' }, 'spec.x', 'must be one of "A", got "B"'],
  ['not matching the pattern', { type: 'string', pattern: '^[a-z]+$', default: 'ABC' }, 'spec.x', 'must match the pattern'],
  ['too long', { type: 'string', maxLength: 2, default: 'abc' }, 'spec.x', 'must be at most 2 characters long'],
  ['with a bad item', { type: 'array', items: { type: 'string' }, default: ['a', 1] }, 'spec.x[1]', 'must be of type string, got integer'],
  ['missing a required field', { type: 'object', required: ['a'], properties: { a: { type: 'string' } }, default: {} }, 'spec.x.a', 'default {} is invalid: is required'],
  ['with fields that would be pruned', { type: 'object', properties: { a: { type: 'string' } }, default: { a: 'x', b: 'y' } }, 'spec.x', 'has fields the schema does not specify'],
];

/** `[rule, message, column]`: checkCelRule rejects the rule. */
export const celRejections: [string, string, number][] = [
  ['', 'empty expression', 1],
  ['self.x ==', 'unexpected end of expression', 10],
  ['self.x.y.z(', 'unexpected end of expression', 12],
  ['self..x', "unexpected '.', expected a field name", 6],
  ['1 +', 'unexpected end of expression', 4],
  ["'unterminated", 'unterminated string literal', 1],
  ["'line\nbreak'", 'newline in string literal', 1],
  ["'\\q'", "invalid escape sequence '\\q'", 2],
  ["'\\x4'", "invalid escape sequence '\\x'", 2],
  ['self.all(x, )', "unexpected ')', expected an expression", 13],
  ['f(1,)', "unexpected ')', expected an expression", 5],
  ['self.x === 1', "unexpected character '=' (use '==' to compare)", 10],
  ['self.x = 1', "unexpected character '='", 8],
  ['self.a & self.b', "unexpected character '&' (use '&&')", 8],
  ["size(self) > 0 ? 'a'", "unexpected end of expression, expected ':' of the conditional", 21],
  ['self[0]]', "unexpected ']', expected an operator or the end of the expression", 8],
  ['self.x 1', "unexpected '1'", 8],
  ['(self.x', "unexpected end of expression, expected ')'", 8],
  ['[1, 2', "unexpected end of expression, expected ',' or ']'", 6],
  ["{'a' 1}", "expected ':' between map key and value", 6],
  ['if == 1', "reserved identifier 'if'", 1],
  ['self.true', "unexpected 'true', expected a field name", 6],
  ['has(self)', 'invalid argument to has() macro', 1],
  ["has(self['a'])", 'invalid argument to has() macro', 1],
  ['self.all(1, x)', 'argument 1 of all() must be a simple variable name', 6],
  ['self.exists(x.y, x)', 'argument 1 of exists() must be a simple variable name', 6],
  ['self.map(.x, x)', 'argument 1 of map() must be a simple variable name', 6],
  ['self.?f(1)', "a method call cannot use optional selection '.?'", 7],
  ['9223372036854775808', 'does not fit in 64 bits', 1],
  ['18446744073709551616u', 'does not fit in 64 bits', 1],
  ['0x', 'hexadecimal literal needs digits after 0x', 1],
  ['self.a # b', "unexpected character '#'", 8],
  ['-!true', "unexpected '!', expected an expression", 2],
];
