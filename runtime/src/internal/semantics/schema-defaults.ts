/**
 * apiextensions-apiserver's check of the defaults in a CRD schema's structural part: a
 * default validates against the schema it sits on (types, formats, limits, enums, patterns,
 * required fields, junctors) and survives pruning unchanged. A `null` default is no default,
 * and defaults under `additionalProperties` are never applied, so neither is checked (as there).
 *
 * @module
 */
import { prune } from './prune.js';
import { finding, itemsPlace, joinField, propertyPlace, ROOT, type Place, type SchemaFinding } from './schema-place.js';
import { goValue } from './paths.js';
import type { Json, SchemaNode } from './types.js';
import { validateStructural } from './value.js';

/**
 * The refused defaults of `root`; a value error's `path` is where in the default it is
 * (`spec.ports[*].protocol`, `spec.x[1]`), its keyword `default` and the error's own path.
 *
 * @example
 * defaultFindings({ type: 'object', properties: { n: { type: 'integer', minimum: 1, default: 0 } } });
 * // [{ path: 'n', keyword: 'default', error: { type: 'FieldValueInvalid', field: 'properties[n].default', value: '0', detail: ' in body should be greater than or equal to 1', … } }]
 */
export function defaultFindings(root: SchemaNode): SchemaFinding[] {
  const found: SchemaFinding[] = [];
  visit(root, ROOT, found);
  return found;
}

/** Frozen (shared) subtrees whose defaults are valid: the place only shapes the findings. */
const clean = new WeakSet<SchemaNode>();

function visit(node: SchemaNode, place: Place, found: SchemaFinding[]): void {
  const memo = Object.isFrozen(node);
  if (memo && clean.has(node)) return;
  const before = found.length;
  if (node.default !== undefined && node.default !== null) found.push(...check(node, node.default as Json, place));
  if (node.items && typeof node.items === 'object' && !Array.isArray(node.items)) visit(node.items, itemsPlace(place), found);
  for (const [name, property] of Object.entries(node.properties ?? {})) visit(property, propertyPlace(place, name), found);
  if (memo && found.length === before) clean.add(node);
}

function check(node: SchemaNode, value: Json, place: Place): SchemaFinding[] {
  const schema = { ...node, default: undefined };
  const errors = validateStructural(value, schema, '', '');
  const found = errors.map((error): SchemaFinding => {
    const inside = error.field === '<nil>' ? '' : error.field;
    const at = error.check?.field ?? inside;
    const base = joinField(place.field, 'default');
    // The API server joins the default's own paths with a dot, brackets too: `default.[1]`.
    return { path: joinData(place.data, at), keyword: 'default', error: { ...error, field: inside === '' ? base : `${base}.${inside}` }, default: value };
  });
  // A default is pruned as a field's value: below the root, apiVersion, kind and metadata are ordinary fields.
  if (prune(structuredClone(value), node, false).length > 0) {
    const error = { type: 'FieldValueInvalid', value: goValue(value), detail: 'must not have unknown fields', check: { keyword: 'x-kubernetes-preserve-unknown-fields', limit: false, actual: value } } as const;
    found.push({ ...finding(place, 'default', error), default: value });
  }
  return found;
}

/** A data path below `path`: `spec.x` and `[1]` make `spec.x[1]`, `a` makes `spec.x.a`. */
function joinData(path: string, below: string): string {
  if (below === '') return path;
  if (path === '' || below.startsWith('[')) return `${path}${below}`;
  return `${path}.${below}`;
}
