/**
 * The areas a fuzz case exercises, where each applies in a schema (its sites), and the
 * mutation that puts a value at a site off (or right at) the edge of what the schema allows.
 */
import { generate, MAP_KEY, type Schema, type Segment } from './generate.js';
import type { Random } from './prng.js';

export const AREAS = [
  'valid', 'bounds', 'enums', 'patterns', 'formats', 'CEL', 'list maps', 'unknown fields', 'types', 'int-or-string', 'embedded', 'transition rules',
] as const;
export type FuzzArea = (typeof AREAS)[number];

export interface Site {
  path: Segment[];
  schema: Schema;
}

/** Schemas this deep are not walked for sites (the corpus' PodSpecs are deeper than any case needs). */
const SITE_DEPTH = 14;

/** Which areas a schema node offers. */
function areasOf(schema: Schema): FuzzArea[] {
  const areas: FuzzArea[] = ['types'];
  const bounded = ['minimum', 'maximum', 'minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties'] as const;
  if (bounded.some((keyword) => schema[keyword] !== undefined)) areas.push('bounds');
  if (schema.enum) areas.push('enums');
  if (schema.pattern) areas.push('patterns');
  if (schema.format && (schema.type === 'string' || schema.type === undefined)) areas.push('formats');
  const rules = schema['x-kubernetes-validations'] ?? [];
  if (rules.length > 0) areas.push('CEL');
  if (rules.some((rule) => /\boldSelf\b/.test(rule.rule))) areas.push('transition rules');
  if (schema['x-kubernetes-list-type'] === 'map' || schema['x-kubernetes-list-type'] === 'set') areas.push('list maps');
  if (schema.properties && !schema['x-kubernetes-preserve-unknown-fields']) areas.push('unknown fields');
  if (schema['x-kubernetes-int-or-string']) areas.push('int-or-string');
  if (schema['x-kubernetes-embedded-resource']) areas.push('embedded');
  return areas;
}

/** Every site of a custom resource's schema, by area (the root is the one `valid` site). */
export function sitesOf(root: Schema, skipStatus: boolean): Map<FuzzArea, Site[]> {
  const sites = new Map<FuzzArea, Site[]>([['valid', [{ path: [], schema: root }]]]);
  const visit = (schema: Schema, path: Segment[]): void => {
    if (path.length > 0) for (const area of areasOf(schema)) sites.set(area, [...(sites.get(area) ?? []), { path, schema }]);
    if (path.length >= SITE_DEPTH) return;
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      if (path.length === 0 && (name === 'apiVersion' || name === 'kind' || name === 'metadata' || (skipStatus && name === 'status'))) continue;
      visit(property, [...path, { prop: name }]);
    }
    if (schema.items) visit(schema.items, [...path, { item: true }]);
    if (typeof schema.additionalProperties === 'object') visit(schema.additionalProperties, [...path, { key: true }]);
  };
  visit(root, []);
  return sites;
}

/** Where a site's value sits in a generated value: its container and key (the root has none). */
function locate(value: unknown, path: Segment[]): { parent: Record<string, unknown> | unknown[]; key: string | number } | undefined {
  let current = value;
  for (let i = 0; i < path.length; i++) {
    const segment = path[i]!;
    const key = 'prop' in segment ? segment.prop : 'item' in segment ? 0 : MAP_KEY;
    if (current === null || typeof current !== 'object') return undefined;
    if (i === path.length - 1) return { parent: current as Record<string, unknown>, key };
    current = (current as Record<string | number, unknown>)[key];
  }
  return undefined;
}

export interface Mutated {
  /** What the mutation did, for the report. */
  what: string;
  /** A query the request adds (fieldValidation). */
  query?: Record<string, string>;
}

/** Mutates `value` (a generated object) at `site` for `area`; `valid` leaves it as it is. */
export function mutate(value: Record<string, unknown>, site: Site, area: FuzzArea, rng: Random): Mutated {
  if (area === 'valid') return { what: 'as generated', query: rng.chance(0.3) ? { fieldValidation: 'Strict' } : undefined };
  const place = locate(value, site.path);
  if (!place) return { what: 'site not reached' };
  const { parent, key } = place;
  const set = (next: unknown, what: string): Mutated => {
    (parent as Record<string | number, unknown>)[key] = next;
    return { what };
  };
  const current = (parent as Record<string | number, unknown>)[key];
  const schema = site.schema;
  switch (area) {
    case 'bounds':
      return bounds(schema, rng, current, set);
    case 'enums': {
      const first = String(schema.enum?.[0] ?? '');
      const next = rng.pick(['', 'Bogus', `${first}x`, first.toLowerCase(), first.toUpperCase(), ...(schema.enum ?? [])]);
      return set(next, `enum value ${JSON.stringify(next)}`);
    }
    case 'patterns': {
      const next = rng.pick(['', 'é', 'a b', '-a', 'a-', 'A', '1', '..', 'a'.repeat(rng.int(2, 70)), 'UPPER_case', 'x:y/z', 'a\nb']);
      return set(next, `pattern ${schema.pattern} against ${JSON.stringify(next)}`);
    }
    case 'formats': {
      const next = rng.pick(badFormats[schema.format ?? ''] ?? ['', 'not-a-value', '%%%']);
      return set(next, `format ${schema.format} with ${JSON.stringify(next)}`);
    }
    case 'CEL':
    case 'transition rules': {
      const choice = rng.int(0, 3);
      if (choice === 0 && !Array.isArray(parent)) {
        delete (parent as Record<string, unknown>)[key];
        return { what: 'removed' };
      }
      if (choice === 1) return set(empty(schema), 'emptied');
      return set(generate(schema, rng), 'regenerated');
    }
    case 'list maps': {
      if (!Array.isArray(current) || current.length === 0) return set([generate(schema.items ?? {}, rng), generate(schema.items ?? {}, rng)], 'two fresh items');
      const copy = structuredClone(current[0]) as Record<string, unknown>;
      const keys = schema['x-kubernetes-list-map-keys'] ?? [];
      if (rng.chance(0.3) && keys.length > 0 && copy && typeof copy === 'object') {
        delete copy[rng.pick(keys)];
        return set([...current, copy], 'an item without a key');
      }
      return set([...current, copy], 'a duplicate item');
    }
    case 'unknown fields': {
      if (current === null || typeof current !== 'object' || Array.isArray(current)) return { what: 'not an object' };
      (current as Record<string, unknown>)[rng.pick(['unknownField', 'extra', 'Spec'])] = rng.pick([1, 'x', { a: 1 }]);
      return { what: 'an unknown field', query: { fieldValidation: rng.pick(['Strict', 'Warn', 'Ignore']) } };
    }
    case 'types': {
      const next = wrongType(schema, rng);
      return set(next, `type ${schema.type ?? 'any'} given ${JSON.stringify(next)}`);
    }
    case 'int-or-string': {
      const next = rng.pick([0, -1, 1.5, '50%', '', 'abc', true, {}, '1e3', 2 ** 40, '101%', null]);
      return set(next, `int-or-string ${JSON.stringify(next)}`);
    }
    case 'embedded': {
      if (current === null || typeof current !== 'object' || Array.isArray(current)) return { what: 'not an object' };
      const embedded = current as Record<string, unknown>;
      const choice = rng.int(0, 5);
      if (choice === 0) delete embedded.apiVersion;
      if (choice === 1) delete embedded.kind;
      if (choice === 2) embedded.metadata = { name: 'Bad_Name' };
      if (choice === 3) embedded.metadata = { name: 'x', unknownMeta: 1 };
      if (choice === 4) embedded.metadata = { generateName: 'g-', labels: { 'a/b/c': 'x' } };
      if (choice === 5) embedded.apiVersion = 7;
      return { what: `embedded mutation ${choice}` };
    }
  }
}

function empty(schema: Schema): unknown {
  if (schema.type === 'string') return '';
  if (schema.type === 'array') return [];
  if (schema.type === 'object') return {};
  if (schema.type === 'integer' || schema.type === 'number') return 0;
  return false;
}

function wrongType(schema: Schema, rng: Random): unknown {
  const choices: Record<string, unknown[]> = {
    string: [1, true, { a: 'b' }, ['x'], null],
    integer: ['1', 1.5, true, null, [1], 2 ** 53],
    number: ['1.5', false, null, {}],
    boolean: ['true', 1, null],
    object: ['x', [{}], 3, null],
    array: [{ a: 1 }, 'x', 1, null],
  };
  return rng.pick(choices[schema.type ?? ''] ?? ['x', 1, null]);
}

const badFormats: Record<string, string[]> = {
  'date-time': ['2024-13-01T00:00:00Z', 'yesterday', '2024-01-02', '2024-01-02T03:04:05', '2024-01-02 03:04:05Z', ''],
  date: ['2024-02-30', '2024/01/02', ''],
  duration: ['1x', '1d', '', '-1h', '1.5h', 'PT1H'],
  byte: ['a', '!!', 'YWJ', 'YWJj\n'],
  uri: ['::', 'not a uri', ''],
  hostname: ['-a', 'a_b', ''],
  ipv4: ['999.1.1.1', '1.2.3', '::1'],
  ipv6: ['10.0.0.1', 'zz::1'],
  cidr: ['10.0.0.1', '10.0.0.0/33', 'x'],
  uuid: ['123', 'zzze4567-e89b-12d3-a456-426614174000'],
  email: ['a', '@b'],
  int32: ['x'],
};

function bounds(schema: Schema, rng: Random, current: unknown, set: (next: unknown, what: string) => Mutated): Mutated {
  const options: Array<() => Mutated> = [];
  const edge = rng.pick([-1, 0, 1]);
  if (schema.minimum !== undefined) options.push(() => set(schema.minimum! + edge - 1 + (schema.exclusiveMinimum ? 1 : 0), `minimum ${schema.minimum} ${edge}`));
  if (schema.maximum !== undefined) options.push(() => set(schema.maximum! + edge + 1 - (schema.exclusiveMaximum ? 1 : 0), `maximum ${schema.maximum} ${edge}`));
  if (schema.maxLength !== undefined && schema.maxLength < 5000) options.push(() => set('b'.repeat(Math.max(0, schema.maxLength! + edge)), `maxLength ${schema.maxLength} ${edge}`));
  if (schema.maxLength !== undefined && schema.maxLength < 5000 && !schema.pattern) options.push(() => set('é'.repeat(schema.maxLength! + 1 - rng.int(0, 1)), `maxLength ${schema.maxLength} in two-byte characters`));
  if (schema.minLength !== undefined) options.push(() => set('c'.repeat(Math.max(0, schema.minLength! + edge)), `minLength ${schema.minLength} ${edge}`));
  const items = schema.items ?? {};
  const list = (length: number) => Array.from({ length: Math.max(0, length) }, () => generate(items, rng));
  if (schema.maxItems !== undefined && schema.maxItems < 300) options.push(() => set(list(schema.maxItems! + edge), `maxItems ${schema.maxItems} ${edge}`));
  if (schema.minItems !== undefined) options.push(() => set(list(schema.minItems! + edge), `minItems ${schema.minItems} ${edge}`));
  const map = (count: number) => {
    const base = current && typeof current === 'object' && !Array.isArray(current) ? { ...(current as Record<string, unknown>) } : {};
    const value = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : { type: 'string' };
    for (let i = 0; Object.keys(base).length < count && i < 300; i++) base[`p${i}`] = generate(value, rng);
    while (Object.keys(base).length > Math.max(0, count)) delete base[Object.keys(base).at(-1)!];
    return base;
  };
  if (schema.maxProperties !== undefined && schema.maxProperties < 300) options.push(() => set(map(schema.maxProperties! + edge), `maxProperties ${schema.maxProperties} ${edge}`));
  if (schema.minProperties !== undefined) options.push(() => set(map(schema.minProperties! + edge), `minProperties ${schema.minProperties} ${edge}`));
  if (options.length === 0) return { what: 'no bound' };
  return rng.pick(options)();
}
