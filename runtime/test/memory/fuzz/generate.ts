/**
 * Values from a CRD's structural schema: valid as far as the schema's own keywords say
 * (types, bounds, enums, formats, list types; a pattern is met when one of a few usual
 * strings meets it; CEL rules are not solved, the servers decide them), with an optional
 * focus path that the value always reaches, so a mutation can land on any part of the
 * schema, not only on the parts a random walk happens to include.
 */
import type { Random } from './prng.js';

export interface Schema {
  type?: string;
  properties?: Record<string, Schema>;
  additionalProperties?: Schema | boolean;
  items?: Schema;
  required?: string[];
  enum?: unknown[];
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean;
  exclusiveMaximum?: boolean;
  multipleOf?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  minProperties?: number;
  maxProperties?: number;
  nullable?: boolean;
  default?: unknown;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-list-type'?: string;
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-validations'?: Array<{ rule: string }>;
}

/** One step into a value: a property, an array's first item, a map's first key. */
export type Segment = { prop: string } | { item: true } | { key: true };

/** The key a map (additionalProperties) gets when a focus path goes through it. */
export const MAP_KEY = 'k0';

/** Deeper than this, only required properties are generated (beside the focus path). */
const DEPTH = 9;

/** Strings tried, in turn, against a pattern; the first that matches is used. */
const PATTERN_CANDIDATES = [
  'a', 'abc', 'example', 'foo-bar', 'a1', 'v1', '1', '10', '100', 'A', 'Abc', 'ABC', 'abc.def', 'example.com', 'a.b.c', '/', '/path', '/a/b',
  'http://example.com', 'https://example.com/x', '1s', '10m', '1h', '5m0s', '1Gi', '100Mi', '0.5', '1.0.0', 'v1.2.3', 'a_b', 'a:b', 'a/b',
  'key=value', '10.0.0.1', '10.0.0.0/8', '*', '*.example.com', 'GET', 'TCP', 'True', 'us-east-1', 'sha256:' + 'a'.repeat(64), 'a@b.c', 'ab-12',
];

const FORMAT_VALUES: Record<string, string[]> = {
  'date-time': ['2024-01-02T03:04:05Z', '2029-06-01T10:00:00.5Z', '2024-02-29T23:59:59+02:00'],
  date: ['2024-01-02'],
  duration: ['1h', '30s', '1h30m', '500ms'],
  byte: ['YWJj', 'AAAA', ''],
  uri: ['http://example.com', 'https://example.com/a?b=c'],
  hostname: ['example.com', 'a.b'],
  ipv4: ['10.0.0.1', '192.168.1.254'],
  ipv6: ['::1', 'fe80::1'],
  cidr: ['10.0.0.0/8', 'fd00::/64'],
  uuid: ['123e4567-e89b-12d3-a456-426614174000'],
  email: ['a@example.com'],
  password: ['secret'],
  int32: ['1'],
  'int-or-string': ['1', '50%'],
};

export function compilesAsJs(pattern: string): RegExp | undefined {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    return undefined;
  }
}

/** The schema one segment down, or undefined where the schema has no such child. */
export function child(schema: Schema, segment: Segment): Schema | undefined {
  if ('prop' in segment) return schema.properties?.[segment.prop];
  if ('item' in segment) return schema.items;
  return typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
}

/** A valid-looking value of `schema`, reaching `focus` (a path below it) when given. */
export function generate(schema: Schema, rng: Random, focus: Segment[] = [], depth = 0): unknown {
  if (schema.enum && schema.enum.length > 0 && focus.length === 0) return structuredClone(rng.pick(schema.enum));
  if (schema['x-kubernetes-int-or-string']) return rng.chance(0.5) ? rng.int(0, 100) : rng.pick(['1', '50%', '80', 'http']);
  const type = schema.type ?? (schema.properties ? 'object' : schema.items ? 'array' : undefined);
  switch (type) {
    case 'object':
      return object(schema, rng, focus, depth);
    case 'array':
      return array(schema, rng, focus, depth);
    case 'string':
      return string(schema, rng);
    case 'integer':
      return integer(schema, rng);
    case 'number':
      return integer(schema, rng) + (schema.multipleOf ? 0 : rng.pick([0, 0.5, 0.25]));
    case 'boolean':
      return rng.chance(0.5);
    default:
      // preserve-unknown-fields without a type: anything.
      return rng.pick([{}, { a: 1 }, 'x', 3, [1, 'b'], { nested: { b: true } }]);
  }
}

function object(schema: Schema, rng: Random, focus: Segment[], depth: number): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  if (schema['x-kubernetes-embedded-resource']) {
    result.apiVersion = 'v1';
    result.kind = 'ConfigMap';
    result.metadata = { name: 'embedded' };
  }
  const [next, ...rest] = focus;
  const properties = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const chance = depth < 3 ? 0.5 : depth < DEPTH ? 0.2 : 0;
  for (const [name, property] of Object.entries(properties)) {
    if (depth === 0 && (name === 'apiVersion' || name === 'kind' || name === 'metadata')) continue;
    const focused = next !== undefined && 'prop' in next && next.prop === name;
    if (focused || required.has(name) || rng.chance(chance)) result[name] = generate(property, rng, focused ? rest : [], depth + 1);
  }
  if (typeof schema.additionalProperties === 'object') {
    const focused = next !== undefined && 'key' in next;
    const count = focused ? 1 : depth < DEPTH ? rng.int(0, 2) : 0;
    for (let i = 0; i < count; i++) result[`k${i}`] = generate(schema.additionalProperties, rng, focused && i === 0 ? rest : [], depth + 1);
  } else if (!schema.properties && schema['x-kubernetes-preserve-unknown-fields'] && rng.chance(0.5)) {
    result.free = rng.pick([1, 'x', { y: [true] }]);
  }
  const min = schema.minProperties ?? 0;
  for (let i = 0; Object.keys(result).length < min && i < 10; i++) {
    const missing = Object.keys(properties).find((name) => !(name in result) && !(depth === 0 && ['apiVersion', 'kind', 'metadata'].includes(name)));
    if (missing) result[missing] = generate(properties[missing]!, rng, [], depth + 1);
    else if (typeof schema.additionalProperties === 'object') result[`m${i}`] = generate(schema.additionalProperties, rng, [], depth + 1);
    else break;
  }
  return result;
}

function array(schema: Schema, rng: Random, focus: Segment[], depth: number): unknown[] {
  const items = schema.items ?? {};
  const min = schema.minItems ?? 0;
  const max = Math.min(schema.maxItems ?? min + 3, min + 3);
  let length = depth < DEPTH ? rng.int(min, max) : min;
  const focused = focus.length > 0 && 'item' in focus[0]!;
  if (focused) length = Math.max(length, 1);
  const result = Array.from({ length }, (_, i) => generate(items, rng, focused && i === 0 ? focus.slice(1) : [], depth + 1));
  const listType = schema['x-kubernetes-list-type'];
  if (listType === 'map') return unique(result, (item) => JSON.stringify((schema['x-kubernetes-list-map-keys'] ?? []).map((key) => (item as Record<string, unknown>)?.[key] ?? null)));
  if (listType === 'set') return unique(result, (item) => JSON.stringify(item));
  return result;
}

/** Keeps the first of items with the same key (so the focus item, first, stays). */
function unique(items: unknown[], key: (item: unknown) => string): unknown[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const k = key(item);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

function string(schema: Schema, rng: Random): string {
  const fitting = (value: string) => value.length >= (schema.minLength ?? 0) && value.length <= (schema.maxLength ?? Infinity);
  const formatted = FORMAT_VALUES[schema.format ?? '']?.filter(fitting);
  if (formatted && formatted.length > 0 && !schema.pattern) return rng.pick(formatted);
  if (schema.pattern) {
    const regex = compilesAsJs(schema.pattern);
    const start = rng.int(0, PATTERN_CANDIDATES.length - 1);
    for (let i = 0; regex && i < PATTERN_CANDIDATES.length; i++) {
      const candidate = PATTERN_CANDIDATES[(start + i) % PATTERN_CANDIDATES.length]!;
      if (regex.test(candidate) && fitting(candidate)) return candidate;
    }
  }
  if (typeof schema.default === 'string') return schema.default;
  const min = schema.minLength ?? 0;
  const max = Math.min(schema.maxLength ?? min + 12, min + 12);
  const length = rng.int(Math.max(min, Math.min(1, max)), max);
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  return Array.from({ length }, () => letters[rng.int(0, letters.length - 1)]).join('');
}

function integer(schema: Schema, rng: Random): number {
  const low = schema.minimum === undefined ? 0 : Math.ceil(schema.minimum) + (schema.exclusiveMinimum ? 1 : 0);
  const high = schema.maximum === undefined ? low + 100 : Math.floor(schema.maximum) - (schema.exclusiveMaximum ? 1 : 0);
  let value = high < low ? low : rng.int(low, Math.min(high, low + 1000));
  if (schema.multipleOf && Number.isInteger(schema.multipleOf)) value = Math.ceil(value / schema.multipleOf) * schema.multipleOf;
  return value;
}
