import type { JSONSchemaProps } from '../../schema/types.js';
import { formatExamples } from './format-examples.js';
import { compilePattern } from '../../validation/pattern.js';
import { validateValue } from '../../validation/value.js';
import { patternExample } from './pattern-example.js';

/** Where a value sits in the sample: keys and list indexes from the root. */
export type ValuePath = readonly (string | number)[];

/**
 * The smallest valid value for `schema`: required properties only, each taken from its
 * `default`, else its `example`, else its first `enum` value, else synthesized to meet the
 * limits (minimum, multipleOf, minLength, minItems, pattern, format). A candidate that does
 * not validate is passed over for the next. `seed` makes sibling items differ (list sets
 * and map lists need distinct items). `placeholder` is told the path (below `path`) of each
 * made-up value a user must replace: strings, and empty objects and lists.
 */
export function exampleValue(schema: JSONSchemaProps, seed = 0, placeholder?: (path: ValuePath) => void, path: ValuePath = []): unknown {
  const candidates: unknown[] = [];
  if (schema.default !== undefined) candidates.push(schema.default);
  if (schema.example !== undefined) candidates.push(schema.example);
  const firstEnum = schema.enum?.find((value) => value !== null);
  if (firstEnum !== undefined) candidates.push(seed > 0 && schema.enum ? (schema.enum[seed % schema.enum.length] ?? firstEnum) : firstEnum);
  for (const candidate of candidates) {
    if (validateValue(schema, candidate).length === 0) return structuredClone(candidate);
  }
  const value = synthesize(schema, seed, placeholder, path);
  if (placeholder && isMadeUp(value)) placeholder(path);
  return value;
}

function isMadeUp(value: unknown): boolean {
  if (typeof value === 'string') return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === 'object' && value !== null && Object.keys(value).length === 0;
}

function synthesize(schema: JSONSchemaProps, seed: number, placeholder: ((path: ValuePath) => void) | undefined, path: ValuePath): unknown {
  switch (schema.type) {
    case 'object':
      return objectExample(schema, seed, placeholder, path);
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, (_, i) => (schema.items ? exampleValue(schema.items, seed + i, placeholder, [...path, i]) : {}));
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

function objectExample(schema: JSONSchemaProps, seed: number, placeholder: ((path: ValuePath) => void) | undefined, path: ValuePath): Record<string, unknown> {
  const value: Record<string, unknown> = {};
  const required = new Set(schema.required);
  if (schema['x-kubernetes-embedded-resource']) {
    required.add('apiVersion');
    required.add('kind');
  }
  for (const name of required) {
    const property = schema.properties?.[name] ?? (typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined);
    value[name] = property ? exampleValue(property, seed, placeholder, [...path, name]) : embeddedTypeMeta[name];
  }
  const valueSchema = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
  for (let i = Object.keys(value).length; i < (schema.minProperties ?? 0); i++) {
    value[`key${i + 1}`] = valueSchema ? exampleValue(valueSchema, seed + i, placeholder, [...path, `key${i + 1}`]) : 'value';
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
    const matching = 'regex' in compiled && compiled.regex ? patternExample(compiled.regex, min, max, seed) : undefined;
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
