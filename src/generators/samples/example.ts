import type { JSONSchemaProps } from '../../schema/types.js';
import { formatExamples } from '../../validation/formats.js';
import { compilePattern } from '../../validation/pattern.js';
import { validateValue } from '../../validation/value.js';
import { patternExample } from './pattern-example.js';

/**
 * The smallest valid value for `schema`: required properties only, each taken from its
 * `default`, else its `example`, else its first `enum` value, else synthesized to meet the
 * limits (minimum, multipleOf, minLength, minItems, pattern, format). A candidate that does
 * not validate is passed over for the next. `seed` makes sibling items differ (list sets
 * and map lists need distinct items).
 */
export function exampleValue(schema: JSONSchemaProps, seed = 0): unknown {
  const candidates: unknown[] = [];
  if (schema.default !== undefined) candidates.push(schema.default);
  if (schema.example !== undefined) candidates.push(schema.example);
  const firstEnum = schema.enum?.find((value) => value !== null);
  if (firstEnum !== undefined) candidates.push(seed > 0 && schema.enum ? (schema.enum[seed % schema.enum.length] ?? firstEnum) : firstEnum);
  for (const candidate of candidates) {
    if (validateValue(schema, candidate).length === 0) return structuredClone(candidate);
  }
  return synthesize(schema, seed);
}

function synthesize(schema: JSONSchemaProps, seed: number): unknown {
  switch (schema.type) {
    case 'object':
      return objectExample(schema, seed);
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, (_, i) => (schema.items ? exampleValue(schema.items, seed + i) : {}));
    case 'string':
      return stringExample(schema, seed);
    case 'integer':
    case 'number':
      return numberExample(schema, seed);
    case 'boolean':
      return seed % 2 === 1;
    default:
      // An int-or-string's pattern and length limits only apply to strings: a number always fits.
      return schema['x-kubernetes-int-or-string'] ? numberExample(schema, seed) : {};
  }
}

function objectExample(schema: JSONSchemaProps, seed: number): Record<string, unknown> {
  const value: Record<string, unknown> = {};
  const required = new Set(schema.required);
  if (schema['x-kubernetes-embedded-resource']) {
    required.add('apiVersion');
    required.add('kind');
  }
  for (const name of required) {
    const property = schema.properties?.[name] ?? (typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined);
    value[name] = property ? exampleValue(property, seed) : embeddedTypeMeta[name];
  }
  const valueSchema = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
  for (let i = Object.keys(value).length; i < (schema.minProperties ?? 0); i++) {
    value[`key${i + 1}`] = valueSchema ? exampleValue(valueSchema, seed + i) : 'value';
  }
  return value;
}

/** What an embedded resource without a schema for its type fields is given. */
const embeddedTypeMeta: Record<string, unknown> = { apiVersion: 'v1', kind: 'ConfigMap' };

function stringExample(schema: JSONSchemaProps, seed: number): string {
  const min = schema.minLength ?? 0;
  const max = schema.maxLength ?? Infinity;
  const fits = (s: string) => [...s].length >= min && [...s].length <= max;
  const formatted = schema.format !== undefined ? formatExamples[schema.format] : undefined;
  if (formatted !== undefined && fits(formatted)) return formatted;
  if (schema.pattern !== undefined) {
    const compiled = compilePattern(schema.pattern);
    const matching = 'regex' in compiled ? patternExample(compiled.regex, min, max, seed) : undefined;
    if (matching !== undefined) return matching;
  }
  const base = seed > 0 ? `sample${seed}` : 'sample';
  return (base.length < min ? base + 'x'.repeat(min - base.length) : base).slice(0, Math.max(min, Math.min(max, base.length)));
}

function numberExample(schema: JSONSchemaProps, seed: number): number {
  const step = schema.type === 'number' ? (schema.multipleOf ?? 0.5) : 1;
  let low = schema.minimum !== undefined ? schema.minimum + (schema.exclusiveMinimum ? step : 0) : -Infinity;
  let high = schema.maximum !== undefined ? schema.maximum - (schema.exclusiveMaximum ? step : 0) : Infinity;
  const multiple = schema.multipleOf;
  if (multiple !== undefined && multiple > 0) {
    low = Math.ceil(low / multiple) * multiple;
    high = Math.floor(high / multiple) * multiple;
  }
  if (schema.type === 'integer') {
    low = Math.ceil(low);
    high = Math.floor(high);
  }
  const preferred = multiple !== undefined && multiple > 0 ? Math.ceil((1 + seed) / multiple) * multiple : 1 + seed;
  return Math.min(Math.max(preferred, low), high);
}
