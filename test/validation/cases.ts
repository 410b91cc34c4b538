/**
 * Schemas, defaults and CEL rules opgen rejects. The unit tests check the message and the
 * path; the API-server test checks that a real kube-apiserver rejects every one of them.
 */
import type { JSONSchemaProps } from '../../src/schema/types.js';

/** A CRD root schema with `spec` set to the given schema. */
export function root(spec: JSONSchemaProps): JSONSchemaProps {
  return { type: 'object', properties: { apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: { type: 'object' }, spec } };
}

/** A namespaced CRD of `kind` in `group` whose one version, v1, has `schema`. */
export function crdOf(kind: string, group: string, schema: JSONSchemaProps): Record<string, unknown> {
  const plural = `${kind.toLowerCase()}s`;
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}` },
    spec: {
      group,
      names: { kind, listKind: `${kind}List`, plural, singular: kind.toLowerCase() },
      scope: 'Namespaced',
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema } }],
    },
  };
}

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
  ['a field without a type', { type: 'object', properties: { size: { minimum: 1 } } }, 'spec.size', 'type: Required value: must not be empty for specified object fields'],
  ['array items without a type', { type: 'array', items: { description: 'x' } }, 'spec[*]', 'type: Required value: must not be empty for specified array items'],
  ['an array without items', { type: 'array' }, 'spec', 'items: Required value: must be specified'],
  ['a $ref', { type: 'object', properties: { a: { $ref: '#/definitions/A' } as JSONSchemaProps } }, 'spec.a', '$ref: Forbidden: $ref is not supported'],
  ['definitions', { type: 'object', definitions: { A: { type: 'string' } } } as JSONSchemaProps, 'spec', 'definitions: Forbidden: definitions is not supported'],
  [
    'properties beside additionalProperties',
    { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: { type: 'string' } },
    'spec',
    'additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive',
  ],
  ['a type inside anyOf', { type: 'object', anyOf: [{ type: 'object' }, { type: 'string' }] }, 'spec', 'anyOf[0].type: Forbidden: must be empty to be structural'],
  ['a description inside allOf', { type: 'string', allOf: [{ description: 'x' }] }, 'spec', 'allOf[0].description: Forbidden: must be empty to be structural'],
  ['a default inside oneOf', { type: 'string', oneOf: [{ default: 'a' }] }, 'spec', 'oneOf[0].default: Forbidden: must be undefined to be structural'],
  ['nullable inside not', { type: 'string', not: { nullable: true } }, 'spec', 'not.nullable: Forbidden: must be false to be structural'],
  ['additionalProperties inside anyOf', { type: 'object', anyOf: [{ additionalProperties: { type: 'string' } }] }, 'spec', 'anyOf[0].additionalProperties: Forbidden: must be undefined to be structural'],
  ['a list type inside allOf', { type: 'array', items: { type: 'string' }, allOf: [{ 'x-kubernetes-list-type': 'set' }] }, 'spec', 'allOf[0].x-kubernetes-list-type: Forbidden: must be undefined to be structural'],
  ['a CEL rule inside anyOf', { type: 'string', anyOf: [{ 'x-kubernetes-validations': [{ rule: 'true' }] }] }, 'spec', 'anyOf[0].x-kubernetes-validations: Forbidden: must be empty to be structural'],
  [
    'a type deep inside an anyOf clause',
    { type: 'object', properties: { a: { type: 'string' } }, anyOf: [{ properties: { a: { type: 'string' } } }] },
    'spec',
    'anyOf[0].properties[a].type: Forbidden: must be empty to be structural',
  ],
  ['int-or-string anyOf with extra keywords', { anyOf: [{ type: 'integer', minimum: 1 }, { type: 'string' }], 'x-kubernetes-int-or-string': true }, 'spec', 'anyOf[0].type: Forbidden: must be empty to be structural'],
  ['int-or-string with preserve-unknown-fields', { 'x-kubernetes-int-or-string': true, 'x-kubernetes-preserve-unknown-fields': true }, 'spec', 'x-kubernetes-preserve-unknown-fields: Invalid value: true: must be false if x-kubernetes-int-or-string is true'],
  ['an embedded resource that is not an object', { type: 'string', 'x-kubernetes-embedded-resource': true }, 'spec', 'type: Invalid value: "string": must be object if x-kubernetes-embedded-resource is true'],
  ['an embedded resource without properties', { type: 'object', 'x-kubernetes-embedded-resource': true }, 'spec', 'properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields'],
  [
    'an embedded resource whose kind is not a string',
    { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { kind: { type: 'integer' } } },
    'spec',
    'properties[kind].type: Invalid value: "integer": must be string',
  ],
  ['preserve-unknown-fields: false', { type: 'object', 'x-kubernetes-preserve-unknown-fields': false }, 'spec', 'x-kubernetes-preserve-unknown-fields: Invalid value: false: must be true or undefined'],
  ['uniqueItems', { type: 'array', items: { type: 'string' }, uniqueItems: true }, 'spec', 'uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic'],
  ['an invalid pattern', { type: 'string', pattern: '([a-z]' }, 'spec', 'pattern: Invalid value: "([a-z]": must be a valid regular expression, but isn\'t: error parsing regexp: missing closing ): `([a-z]`'],
  ['a lookahead, which RE2 lacks', { type: 'string', pattern: '^(?!kube-).*$' }, 'spec', 'pattern: Invalid value: "^(?!kube-).*$": must be a valid regular expression, but isn\'t: error parsing regexp: invalid or unsupported Perl syntax: `(?!`'],
  ['a list type on an object', { type: 'object', 'x-kubernetes-list-type': 'set' }, 'spec', 'type: Invalid value: "object": must be array if x-kubernetes-list-type is specified'],
  ['an unknown list type', { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'bag' as 'set' }, 'spec', 'x-kubernetes-list-type: Unsupported value: "bag": supported values: "atomic", "set", "map"'],
  ['a map type on an array', { type: 'array', items: { type: 'string' }, 'x-kubernetes-map-type': 'atomic' }, 'spec', 'type: Invalid value: "array": must be object if x-kubernetes-map-type is specified'],
  ['list-map keys without a map list', { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-map-keys': ['a'] }, 'spec', 'x-kubernetes-list-type: Required value: must be map if x-kubernetes-list-map-keys is non-empty'],
  [
    'a map list without keys',
    { type: 'array', 'x-kubernetes-list-type': 'map', items: { type: 'object', properties: { a: { type: 'string' } } } },
    'spec',
    'x-kubernetes-list-map-keys: Required value: must not be empty if x-kubernetes-list-type is map',
  ],
  [
    'a map list of strings',
    { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['a'], items: { type: 'string' } },
    'spec',
    'items.type: Invalid value: "string": must be object if parent array\'s x-kubernetes-list-type is map',
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
    'items.properties[protocol].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property',
  ],
  [
    'a map-list key that is not a property',
    { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['id'], items: { type: 'object', properties: { name: { type: 'string' } } } },
    'spec',
    'x-kubernetes-list-map-keys: Invalid value: ["id"]: entries must all be names of item properties',
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
    'items.properties[ref].type: Invalid value: "object": must be a scalar type if parent array\'s x-kubernetes-list-type is map',
  ],
  [
    'a set of granular objects',
    { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'object', properties: { a: { type: 'string' } } } },
    'spec',
    'items.x-kubernetes-map-type: Invalid value: null: must be atomic as item of a list with x-kubernetes-list-type=set',
  ],
  [
    'a set of set lists',
    { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } } },
    'spec',
    'items.x-kubernetes-list-type: Invalid value: "set": must be atomic as item of a list with x-kubernetes-list-type=set',
  ],
  [
    'nullable items of a set',
    { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string', nullable: true } },
    'spec',
    'items.nullable: Forbidden: cannot be nullable when x-kubernetes-list-type is set',
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
    'items.properties[name].nullable: Forbidden: this property is in x-kubernetes-list-map-keys, so it cannot be nullable',
  ],
  ['an empty CEL rule', { type: 'object', 'x-kubernetes-validations': [{ rule: '  ' }] }, 'spec', 'x-kubernetes-validations[0].rule: Required value: rule is not specified'],
  [
    'a CEL message of two lines',
    { type: 'object', 'x-kubernetes-validations': [{ rule: 'true', message: 'one\ntwo' }] },
    'spec',
    'x-kubernetes-validations[0].message: Invalid value: "one\\ntwo": must not contain line breaks',
  ],
  [
    'a CEL rule of two lines without a message',
    { type: 'object', 'x-kubernetes-validations': [{ rule: 'true &&\ntrue' }] },
    'spec',
    'x-kubernetes-validations[0].message: Required value: message must be specified if rule contains line breaks',
  ],
  ['additionalProperties: false beside properties', { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false }, 'spec', 'additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive'],
  ['metadata inside a junctor', { type: 'object', properties: { metadata: { type: 'object' } }, anyOf: [{ properties: { metadata: {} } }] }, 'spec', 'anyOf[0].properties[metadata]: Forbidden: must not be specified in a nested context'],
  ['patternProperties', { type: 'object', patternProperties: { a: { type: 'string' } } } as JSONSchemaProps, 'spec', 'patternProperties: Forbidden: patternProperties is not supported'],
  ['dependencies', { type: 'object', dependencies: { a: ['b'] } } as JSONSchemaProps, 'spec', 'dependencies: Forbidden: dependencies is not supported'],
  ['additionalItems', { type: 'array', items: { type: 'string' }, additionalItems: false } as JSONSchemaProps, 'spec', 'additionalItems: Forbidden: additionalItems is not supported'],
  ['a type that is not OpenAPI\'s', { type: 'bogus' } as unknown as JSONSchemaProps, 'spec', 'type: Unsupported value: "bogus": supported values: "array", "boolean", "integer", "number", "object", "string"'],
  [
    'an embedded resource with additionalProperties',
    { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true, additionalProperties: { type: 'string' } },
    'spec',
    'additionalProperties: Forbidden: must not be used if x-kubernetes-embedded-resource is set',
  ],
  [
    'an embedded int-or-string',
    { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-int-or-string': true, properties: { a: { type: 'string' } } },
    'spec',
    'x-kubernetes-embedded-resource: Invalid value: true: must be false if x-kubernetes-int-or-string is true',
  ],
  [
    'a map-list key named twice',
    { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['a', 'a'], items: { type: 'object', required: ['a'], properties: { a: { type: 'string' } } } },
    'spec',
    'x-kubernetes-list-map-keys: Invalid value: ["a","a"]: must not contain duplicate entries',
  ],
  ['a blank CEL message', { type: 'object', 'x-kubernetes-validations': [{ rule: 'true', message: '  ' }] }, 'spec', 'x-kubernetes-validations[0].message: Invalid value: "  ": must be non-empty if specified'],
  [
    'a blank messageExpression',
    { type: 'object', 'x-kubernetes-validations': [{ rule: 'true', messageExpression: '  ' }] },
    'spec',
    'x-kubernetes-validations[0].messageExpression: Required value: messageExpression must be non-empty if specified',
  ],
  [
    'a CEL rule of two lines with only a messageExpression',
    { type: 'object', 'x-kubernetes-validations': [{ rule: 'true &&\ntrue', messageExpression: "'x'" }] },
    'spec',
    'x-kubernetes-validations[0].message: Required value: message must be specified if rule contains line breaks',
  ],
  [
    'a CEL reason that is not one of four',
    { type: 'object', 'x-kubernetes-validations': [{ rule: 'true', reason: 'Nope' as 'FieldValueInvalid' }] },
    'spec',
    'x-kubernetes-validations[0].reason: Unsupported value: "Nope": supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"',
  ],
];

/**
 * `[what, spec schema]`: schemas the API server accepts, which the CLI or the memory cluster
 * once refused. Completeness is checked at the root only (a junctor below may restrict a
 * property the schema does not specify: it is pruned, so the restriction never applies);
 * an empty message is no message; a null default is no default; defaults under
 * additionalProperties are never applied, so never checked; list-type uniqueness is not
 * checked in defaults.
 */
export const acceptedSchemas: [string, JSONSchemaProps][] = [
  [
    'a property only specified in anyOf below the root',
    { type: 'object', properties: { a: { type: 'string' } }, anyOf: [{ required: ['b'], properties: { b: { minLength: 1 } } }] },
  ],
  ['an empty CEL message', { type: 'object', 'x-kubernetes-validations': [{ rule: 'true', message: '' }] }],
  ['a null default', { type: 'object', properties: { x: { type: 'string', default: null } } }],
  ['a default under additionalProperties that does not validate', { type: 'object', additionalProperties: { type: 'integer', default: 'x' } }],
  ['a default with duplicates in a set', { type: 'object', properties: { x: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' }, default: ['a', 'a'] } } }],
  ['additionalProperties: true beside properties', { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: true }],
  ['an int-or-string with a type', { type: 'string', 'x-kubernetes-int-or-string': true }],
];

/** `[what, schema of spec.x, path, message]`: checkDefaults reports the default. */
export const defaultRejections: [string, JSONSchemaProps, string, string][] = [
  ['of the wrong type', { type: 'integer', default: '1' }, 'spec.x', 'default "1" is invalid: must be of type integer, got string'],
  ['below the minimum', { type: 'integer', minimum: 1, default: 0 }, 'spec.x', 'default 0 is invalid: must be greater than or equal to 1, got 0'],
  ['outside the enum', { type: 'string', enum: ['A'], default: 'B' }, 'spec.x', 'must be one of "A", got "B"'],
  ['not matching the pattern', { type: 'string', pattern: '^[a-z]+$', default: 'ABC' }, 'spec.x', 'must match the pattern'],
  ['too long', { type: 'string', maxLength: 2, default: 'abc' }, 'spec.x', 'must be at most 2 characters long'],
  ['with a bad item', { type: 'array', items: { type: 'string' }, default: ['a', 1] }, 'spec.x[1]', 'must be of type string, got integer'],
  ['missing a required field', { type: 'object', required: ['a'], properties: { a: { type: 'string' } }, default: {} }, 'spec.x.a', 'default {} is invalid: is required'],
  ['with fields that would be pruned', { type: 'object', properties: { a: { type: 'string' } }, default: { a: 'x', b: 'y' } }, 'spec.x', 'default {"a":"x","b":"y"} is invalid: Invalid value: {"a":"x","b":"y"}: must not have unknown fields'],
  [
    'matching both schemas of a oneOf',
    { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } }, oneOf: [{ required: ['a'] }, { required: ['b'] }], default: { a: 'x', b: 'y' } },
    'spec.x',
    'default {"a":"x","b":"y"} is invalid: must match exactly one schema of oneOf, matches 2',
  ],
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

/**
 * `[fieldPath, the API server's detail or undefined]`: a rule with this fieldPath on a spec of
 * `n` (integer), `list` (strings), `labels` (a map) and `free` (unknown fields) is refused
 * with that detail, or accepted (runtime/test/memory/differential/scenarios/crd-admission.ts
 * proves each against kube-apiserver 1.36.3).
 */
export const fieldPathCases: [string, string | undefined][] = [
  ['.missing', 'must be a valid path'],
  ['n', 'must be a valid path'],
  ['.list[0]', 'must be a valid path'],
  ['.free.x', 'must be a valid path'],
  ['  ', 'must be non-empty if specified'],
  ['.n.', 'must be a valid path'],
  [".labels['a.b']", undefined],
  ['.labels.x', undefined],
  ["['n']", undefined],
];

/** The spec of {@link fieldPathCases}. */
export function fieldPathSpec(fieldPath: string): JSONSchemaProps {
  return {
    type: 'object',
    properties: {
      n: { type: 'integer' },
      list: { type: 'array', items: { type: 'string' } },
      labels: { type: 'object', additionalProperties: { type: 'string' } },
      free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
    },
    'x-kubernetes-validations': [{ rule: 'true', fieldPath }],
  };
}
