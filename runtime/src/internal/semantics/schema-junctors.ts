/**
 * apiextensions-apiserver's rules for the logical junctors (`allOf`, `anyOf`, `oneOf`, `not`)
 * of a structural schema: a clause only validates values, so it names no type, default,
 * description, nullable, additionalProperties, `x-kubernetes-*` extension or `metadata`
 * (int-or-string's two `anyOf` shapes excepted), at any depth; and at the root, every field or
 * items a clause restricts must also be specified in the structural part (completeness).
 *
 * @module
 */
import { isIntOrStringAnyOf } from './combinators.js';
import { finding, itemsPlace, joinField, propertyPlace, ROOT, type Place, type SchemaFinding } from './schema-place.js';
import type { FieldErrorType, SchemaNode } from './types.js';

type Junctor = 'allOf' | 'anyOf' | 'oneOf' | 'not';

/** Keywords a clause must not carry, with the API server's words for each. */
const FORBIDDEN: ReadonlyArray<[keyword: string, detail: string, present: (value: unknown) => boolean]> = [
  ['type', 'must be empty to be structural', (v) => typeof v === 'string' && v !== ''],
  ['additionalProperties', 'must be undefined to be structural', (v) => v !== undefined],
  ['default', 'must be undefined to be structural', (v) => v !== undefined && v !== null],
  ['title', 'must be empty to be structural', (v) => typeof v === 'string' && v !== ''],
  ['description', 'must be empty to be structural', (v) => typeof v === 'string' && v !== ''],
  ['nullable', 'must be false to be structural', (v) => v === true],
  ['externalDocs', 'must be undefined to be structural', (v) => v !== undefined],
  ['x-kubernetes-preserve-unknown-fields', 'must be false to be structural', (v) => v === true],
  ['x-kubernetes-embedded-resource', 'must be false to be structural', (v) => v === true],
  ['x-kubernetes-int-or-string', 'must be false to be structural', (v) => v === true],
  ['x-kubernetes-list-map-keys', 'must be empty to be structural', (v) => Array.isArray(v) && v.length > 0],
  ['x-kubernetes-list-type', 'must be undefined to be structural', (v) => v !== undefined],
  ['x-kubernetes-map-type', 'must be undefined to be structural', (v) => v !== undefined],
  ['x-kubernetes-validations', 'must be empty to be structural', (v) => Array.isArray(v) && v.length > 0],
];

/**
 * The junctor findings of one structural node: what its clauses (and theirs) carry.
 *
 * @example
 * junctorFindings({ type: 'string', allOf: [{ description: 'x' }] }, ROOT); // allOf[0].description: must be empty to be structural
 */
export function junctorFindings(node: SchemaNode, place: Place): SchemaFinding[] {
  const found: SchemaFinding[] = [];
  const skipAnyOf = isIntOrStringAnyOf(node.anyOf);
  const skipFirstAllOfAnyOf = isIntOrStringAnyOf(node.allOf?.[0]?.anyOf);
  eachClause(node, skipAnyOf, skipFirstAllOfAnyOf, '', (clause, label, skip) => nested(clause, place, label, skip, found));
  return found;
}

/** Calls `visit` for each clause of `node`, with its label and whether its own anyOf is int-or-string's. */
function eachClause(node: SchemaNode, skipAnyOf: boolean, skipFirstAllOfAnyOf: boolean, label: string, visit: (clause: SchemaNode, label: string, skipAnyOf: boolean) => void): void {
  const under = (junctor: Junctor, index?: number) => joinField(label, index === undefined ? junctor : `${junctor}[${index}]`);
  if (!skipAnyOf) node.anyOf?.forEach((clause, i) => visit(clause, under('anyOf', i), false));
  node.allOf?.forEach((clause, i) => visit(clause, under('allOf', i), skipFirstAllOfAnyOf && i === 0));
  node.oneOf?.forEach((clause, i) => visit(clause, under('oneOf', i), false));
  if (node.not) visit(node.not, under('not'), false);
}

function nested(clause: SchemaNode, place: Place, label: string, skipAnyOf: boolean, found: SchemaFinding[]): void {
  const at = (keyword: string, type: FieldErrorType, detail: string) => found.push(finding(place, joinField(label, keyword), { type, detail }));
  eachClause(clause, skipAnyOf, false, label, (inner, innerLabel, skip) => nested(inner, place, innerLabel, skip, found));
  if (clause.items) nested(clause.items, place, joinField(label, 'items'), false, found);
  for (const [name, property] of Object.entries(clause.properties ?? {})) nested(property, place, joinField(label, `properties[${name}]`), false, found);
  for (const [keyword, detail, present] of FORBIDDEN) if (present(clause[keyword])) at(keyword, 'FieldValueForbidden', detail);
  // Reasoning about metadata in a clause could restrict it, which the API server owns.
  if (clause.properties?.metadata) at('properties[metadata]', 'FieldValueForbidden', 'must not be specified in a nested context');
}

/**
 * Completeness, checked at the root only (as the API server does): every property or items
 * a clause of the root restricts is specified in the structural part. `rootPath` prefixes the
 * clause's path in the detail (`spec.validation.openAPIV3Schema`).
 *
 * @example
 * completenessFindings({ type: 'object', anyOf: [{ properties: { b: {} } }] }); // properties[b]: Required value: because it is defined in anyOf[0].properties[b]
 */
export function completenessFindings(root: SchemaNode, rootPath = ''): SchemaFinding[] {
  const found: SchemaFinding[] = [];
  const complete = (clause: SchemaNode, structural: SchemaNode, place: Place, label: string): void => {
    eachClause(clause, false, false, label, (inner, innerLabel) => complete(inner, structural, place, innerLabel));
    const missing = (keyword: string, defined: string) =>
      found.push(finding(place, keyword, { type: 'FieldValueRequired', detail: `because it is defined in ${joinField(rootPath, defined)}` }));
    if (clause.items) {
      if (structural.items) complete(clause.items, structural.items, itemsPlace(place), joinField(label, 'items'));
      else missing('items', joinField(label, 'items'));
    }
    for (const [name, property] of Object.entries(clause.properties ?? {})) {
      const specified = structural.properties?.[name];
      const defined = joinField(label, `properties[${name}]`);
      if (specified) complete(property, specified, propertyPlace(place, name), defined);
      else missing(`properties[${name}]`, defined);
    }
  };
  eachClause(root, false, false, '', (clause, label) => complete(clause, root, ROOT, label));
  return found;
}
