import { itemPath, propertyPath, unsupportedKeywords, type SchemaNode } from '@opgen/runtime/internal/semantics';
import type { JSONSchemaProps } from '../schema/types.js';
import type { SchemaProblem } from './path.js';

/** The keywords of a CRD schema (`apiextensions.k8s.io/v1` JSONSchemaProps). */
const schemaKeywords: ReadonlySet<string> = new Set([
  'type', 'format', 'title', 'description', 'default', 'example', 'nullable', 'enum', 'maximum', 'exclusiveMaximum',
  'minimum', 'exclusiveMinimum', 'multipleOf', 'maxLength', 'minLength', 'pattern', 'maxItems', 'minItems',
  'uniqueItems', 'maxProperties', 'minProperties', 'properties', 'required', 'additionalProperties', 'items', 'allOf',
  'anyOf', 'oneOf', 'not', 'externalDocs', 'x-kubernetes-preserve-unknown-fields', 'x-kubernetes-embedded-resource',
  'x-kubernetes-int-or-string', 'x-kubernetes-list-map-keys', 'x-kubernetes-list-type', 'x-kubernetes-map-type',
  'x-kubernetes-validations',
]);

/**
 * Keywords that are no field of a CRD schema at all: kubectl's strict field validation
 * refuses them (`unknown field`), where the API server alone would drop them. Those the API
 * server knows and refuses (`$ref`, `definitions`, …) are the semantics core's findings.
 */
export function unknownKeywords(schema: JSONSchemaProps, path = ''): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  visit(schema as SchemaNode, () => path, problems);
  return problems;
}

/** Frozen (shared) subtrees found without unknown keywords. */
const clean = new WeakSet<SchemaNode>();

/** `at` gives the node's path: it is spelled out only for a problem, which most schemas have none of. */
function visit(node: SchemaNode, at: () => string, problems: SchemaProblem[]): void {
  const memo = Object.isFrozen(node);
  if (memo && clean.has(node)) return;
  const before = problems.length;
  for (const keyword of Object.keys(node)) {
    if (!schemaKeywords.has(keyword) && !unsupportedKeywords.has(keyword)) problems.push({ path: at(), message: `${keyword} is not allowed in a CRD schema` });
  }
  const child = (value: SchemaNode | undefined, childAt: () => string) => {
    if (value && typeof value === 'object' && !Array.isArray(value)) visit(value, childAt, problems);
  };
  child(node.items as SchemaNode | undefined, () => itemPath(at()));
  child(node.not, at);
  for (const clause of [...(node.allOf ?? []), ...(node.anyOf ?? []), ...(node.oneOf ?? [])]) child(clause, at);
  if (typeof node.additionalProperties === 'object') child(node.additionalProperties, () => itemPath(at()));
  for (const [name, property] of Object.entries(node.properties ?? {})) child(property, () => propertyPath(at(), name));
  if (memo && problems.length === before) clean.add(node);
}
