import fc from 'fast-check';
import type { JSONSchemaProps } from '../../src/schema/types.js';

/** Random satisfiable schemas, as the walker could produce them from TypeScript types. */
export const schemaArbitrary = fc.letrec<{ node: JSONSchemaProps; scalar: JSONSchemaProps }>((tie) => ({
  scalar: fc.oneof(
    fc.record({ minLength: fc.nat(5), extra: fc.nat(20) }).map(({ minLength, extra }) => ({ type: 'string' as const, minLength, maxLength: minLength + extra })),
    fc.constantFrom<JSONSchemaProps>(
      { type: 'string', pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$', maxLength: 63 },
      { type: 'string', pattern: '^(\\d+|\\*)(\\s+(\\d+|\\*)){4}$' },
      { type: 'string', pattern: '^[A-Z][a-zA-Z]*$', minLength: 4 },
      { type: 'string', format: 'date-time' },
      { type: 'string', format: 'byte' },
      { type: 'string', format: 'uuid' },
      { type: 'string', format: 'hostname' },
      { type: 'string', format: 'ipv4' },
      { type: 'string', enum: ['Always', 'IfNotPresent', 'Never'] },
      { type: 'boolean' },
      { type: 'integer', format: 'int32', minimum: 1, maximum: 65535 },
      { type: 'number', exclusiveMinimum: true, minimum: 0, multipleOf: 0.25 },
      { anyOf: [{ type: 'integer' }, { type: 'string' }], 'x-kubernetes-int-or-string': true },
      {
        anyOf: [{ type: 'integer' }, { type: 'string' }],
        'x-kubernetes-int-or-string': true,
        pattern: '^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE])?$',
      },
      { type: 'string', nullable: true },
    ),
    fc
      .record({ minimum: fc.integer({ min: -100, max: 100 }), span: fc.nat(50), multipleOf: fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined }) })
      .map(({ minimum, span, multipleOf }) => ({
        type: 'integer' as const,
        minimum,
        maximum: minimum + span + (multipleOf ?? 1),
        ...(multipleOf ? { multipleOf } : {}),
      })),
  ),
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    tie('scalar'),
    fc.record({ items: tie('node'), minItems: fc.nat(3) }).map(({ items, minItems }) => ({ type: 'array' as const, items, minItems })),
    fc
      .record({ minItems: fc.nat(3), items: fc.constantFrom<JSONSchemaProps>({ type: 'string' }, { type: 'integer' }, { type: 'string', pattern: '^[a-z]+$' }) })
      .map(({ items, minItems }) => ({ type: 'array' as const, 'x-kubernetes-list-type': 'set' as const, items, minItems })),
    fc
      .record({ properties: fc.dictionary(fc.constantFrom('a', 'b', 'name', 'port', 'image', 'size'), tie('node'), { maxKeys: 4 }), pick: fc.array(fc.boolean(), { maxLength: 6 }) })
      .map(({ properties, pick }) => ({
        type: 'object' as const,
        properties,
        required: Object.keys(properties).filter((_, i) => pick[i]),
      })),
    fc.record({ value: tie('node'), minProperties: fc.nat(2) }).map(({ value, minProperties }) => ({ type: 'object' as const, additionalProperties: value, minProperties })),
    fc.constant<JSONSchemaProps>({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true }),
  ),
})).node;
