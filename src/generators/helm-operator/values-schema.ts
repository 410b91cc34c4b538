import { isNode, LineCounter, parseDocument, type Document } from 'yaml';
import { UserError } from '../../errors.js';

/** A JSON schema node as values.schema.json has it, and an OpenAPI node as a CRD takes it. */
type Schema = Record<string, unknown>;

/** Keywords a CRD schema takes as they are (value validations and annotations it knows). */
const KEPT = new Set([
  'description', 'title', 'format', 'default', 'enum', 'maximum', 'minimum', 'exclusiveMaximum', 'exclusiveMinimum',
  'maxLength', 'minLength', 'pattern', 'maxItems', 'minItems', 'uniqueItems', 'multipleOf', 'maxProperties', 'minProperties', 'required', 'example',
]);
/** Annotations without meaning for validation: a CRD has no place for them. */
const ANNOTATIONS = new Set(['$schema', '$id', '$comment', 'examples', 'readOnly', 'writeOnly', 'deprecated', 'definitions', '$defs']);
/** Keywords only allowed inside allOf/anyOf/oneOf/not of a structural schema: value validations. */
const VALUE_ONLY = new Set([...KEPT].filter((k) => !['description', 'title', 'default', 'example'].includes(k)));

/**
 * The CRD schema of a chart's values, from its values.schema.json: what operator-sdk never
 * did (its CRDs accept anything). Only what a structural schema can say the same way is
 * converted; anything else is refused with the file, line and column of the keyword, so no
 * rule of the chart is dropped without the user knowing. helm still checks the whole
 * values.schema.json when it renders; the CRD's schema makes the API server check early,
 * and lets `kubectl explain` document the spec.
 *
 * Mapped: `const` → a one-value `enum`; `type: [T, "null"]` → `nullable`; `$ref` to
 * `#/definitions/…` or `#/$defs/…` → inlined; `anyOf`/`oneOf` of integer and string →
 * `x-kubernetes-int-or-string`; a node with no type → `x-kubernetes-preserve-unknown-fields`
 * (any value, as in JSON schema); `additionalProperties: false` → left to the API server's
 * pruning and kubectl's strict field validation.
 */
export function valuesSchemaToCrd(text: string, file: string): Schema {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, version: '1.2' });
  if (doc.errors.length > 0) {
    const error = doc.errors[0]!;
    const pos = lineCounter.linePos(error.pos[0]);
    throw new UserError(`not JSON: ${error.message.split('\n')[0]}`, { file, line: pos.line, column: pos.col });
  }
  const root = doc.toJS() as unknown;
  const fail = (path: (string | number)[], message: string): never => {
    throw new UserError(message, { file, ...locate(doc, lineCounter, path) });
  };
  if (!isSchema(root)) fail([], 'values.schema.json must be a JSON object');
  const converted = convert(root as Schema, [], { root: root as Schema, fail, refs: [] });
  if (converted.type !== 'object' && !converted['x-kubernetes-preserve-unknown-fields']) fail(['type'], 'the values must be an object: the root schema\'s type must be "object"');
  return { ...converted, type: 'object' };
}

interface Walk {
  root: Schema;
  fail: (path: (string | number)[], message: string) => never;
  /** The `$ref`s being inlined, to refuse a recursive one. */
  refs: string[];
}

function convert(node: Schema, path: (string | number)[], walk: Walk): Schema {
  if (typeof node.$ref === 'string') return inline(node, path, walk);
  const out: Schema = {};
  for (const [key, value] of Object.entries(node)) {
    const at = [...path, key];
    if (KEPT.has(key)) {
      out[key] = value;
    } else if (ANNOTATIONS.has(key)) {
      continue;
    } else if (key === 'const') {
      out.enum = [value];
    } else if (key === 'type') {
      Object.assign(out, convertType(value, at, walk));
    } else if (key === 'properties') {
      if (!isSchema(value)) walk.fail(at, 'properties must be an object of schemas');
      out.properties = Object.fromEntries(Object.entries(value as Schema).map(([name, sub]) => [name, convert(schemaAt(sub, [...at, name], walk), [...at, name], walk)]));
    } else if (key === 'items') {
      if (Array.isArray(value)) walk.fail(at, 'items as a list (a tuple) cannot become a structural schema: a CRD\'s items is one schema for every element');
      out.items = convert(schemaAt(value, at, walk), at, walk);
    } else if (key === 'additionalProperties') {
      if (value === true) out['x-kubernetes-preserve-unknown-fields'] = true;
      else if (value !== false) out.additionalProperties = convert(schemaAt(value, at, walk), at, walk);
    } else if (key === 'anyOf' || key === 'oneOf' || key === 'allOf' || key === 'not') {
      Object.assign(out, convertCombinator(key, value, at, walk));
    } else {
      walk.fail(at, `keyword ${key} cannot become a structural schema (a CRD has no equivalent)`);
    }
  }
  if (out.properties && out.additionalProperties) walk.fail([...path, 'additionalProperties'], 'additionalProperties beside properties cannot become a structural schema');
  if (out.type === undefined && !out['x-kubernetes-int-or-string']) {
    if (out.properties || out.additionalProperties) out.type = 'object';
    else if (out.items) out.type = 'array';
    // JSON schema's "any value": a structural schema says it this way.
    else out['x-kubernetes-preserve-unknown-fields'] = true;
  }
  if (out.type === 'object' && !out.properties && !out.additionalProperties) out['x-kubernetes-preserve-unknown-fields'] = true;
  if (out.type === 'array' && !out.items) walk.fail(path, 'an array without items cannot become a structural schema: give items a schema');
  return out;
}

const TYPES = new Set(['object', 'array', 'string', 'integer', 'number', 'boolean']);

function convertType(value: unknown, at: (string | number)[], walk: Walk): Schema {
  const types = Array.isArray(value) ? value : [value];
  const nullable = types.includes('null');
  const rest = types.filter((t) => t !== 'null');
  if (rest.length !== 1 || !TYPES.has(rest[0] as string)) {
    walk.fail(at, `type ${JSON.stringify(value)} cannot become a structural schema: one type, optionally with "null"`);
  }
  return { type: rest[0], ...(nullable && { nullable: true }) };
}

function convertCombinator(key: string, value: unknown, at: (string | number)[], walk: Walk): Schema {
  const branches = key === 'not' ? [value] : value;
  if (!Array.isArray(branches)) walk.fail(at, `${key} must be a list of schemas`);
  const list = (branches as unknown[]).map((b, i) => schemaAt(b, key === 'not' ? at : [...at, i], walk));
  if ((key === 'anyOf' || key === 'oneOf') && list.length === 2) {
    const types = list.map((b) => (Object.keys(b).length === 1 ? b.type : undefined)).sort();
    if (types[0] === 'integer' && types[1] === 'string') return { 'x-kubernetes-int-or-string': true };
  }
  list.forEach((branch, i) => {
    for (const keyword of Object.keys(branch)) {
      if (!VALUE_ONLY.has(keyword)) {
        walk.fail([...(key === 'not' ? at : [...at, i]), keyword], `keyword ${keyword} inside ${key} cannot become a structural schema: ${key} may only hold value validations (pattern, minimum, enum, …)`);
      }
    }
  });
  return { [key]: key === 'not' ? list[0] : list };
}

function inline(node: Schema, path: (string | number)[], walk: Walk): Schema {
  const ref = node.$ref as string;
  const at = [...path, '$ref'];
  const match = /^#\/(definitions|\$defs)\/([^/]+)$/.exec(ref);
  if (!match) walk.fail(at, `$ref ${ref} cannot become a structural schema: only #/definitions/<name> and #/$defs/<name> are inlined`);
  if (walk.refs.includes(ref)) walk.fail(at, `$ref ${ref} is recursive: a structural schema cannot describe a recursive type`);
  const target = (walk.root[match![1]!] as Schema | undefined)?.[match![2]!];
  if (!isSchema(target)) walk.fail(at, `$ref ${ref} names no schema in this file`);
  if (Object.keys(node).length > 1) walk.fail(at, '$ref beside other keywords cannot become a structural schema');
  return convert(target as Schema, [match![1]!, match![2]!], { ...walk, refs: [...walk.refs, ref] });
}

function schemaAt(value: unknown, at: (string | number)[], walk: Walk): Schema {
  if (value === true) return {};
  if (!isSchema(value)) walk.fail(at, 'expected a schema (a JSON object)');
  return value as Schema;
}

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Line and column of the key at `path` (its value when it has no key), for the error. */
function locate(doc: Document, lineCounter: LineCounter, path: (string | number)[]): { line?: number; column?: number } {
  if (path.length === 0) return { line: 1, column: 1 };
  const parent = doc.getIn(path.slice(0, -1), true);
  const last = path[path.length - 1];
  const pair = isNode(parent) && 'items' in parent ? (parent.items as { key?: unknown; value?: unknown }[]) : undefined;
  const item = typeof last === 'number' ? pair?.[last] : pair?.find((p) => isNode(p.key) && (p.key as { value?: unknown }).value === last);
  const target = typeof last === 'number' ? item : (item as { key?: unknown } | undefined)?.key;
  const range = isNode(target) ? target.range : undefined;
  if (!range) return {};
  const pos = lineCounter.linePos(range[0]);
  return { line: pos.line, column: pos.col };
}
