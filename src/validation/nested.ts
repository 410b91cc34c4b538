import { isIntOrStringAnyOf, type SchemaNode } from '@opgen/runtime/internal/semantics';
import type { JSONSchemaProps } from '../schema/types.js';
import { itemPath, propertyPath, type SchemaProblem } from './path.js';
import { compilePattern } from './pattern.js';

/** Keywords that only the structural part of a schema may carry, never an allOf/anyOf/oneOf/not clause. */
const structuralOnly: readonly (keyof JSONSchemaProps)[] = [
  'type', 'additionalProperties', 'default', 'title', 'description', 'nullable', 'externalDocs',
  'x-kubernetes-preserve-unknown-fields', 'x-kubernetes-embedded-resource', 'x-kubernetes-int-or-string',
  'x-kubernetes-list-map-keys', 'x-kubernetes-list-type', 'x-kubernetes-map-type', 'x-kubernetes-validations',
];

/**
 * Checks the logical junctors of one structural node: what their clauses may contain, and
 * that every property or item they mention also exists in the structural part, so that a
 * value validation never speaks of a field pruning would drop.
 */
export function checkJunctors(node: JSONSchemaProps, path: string): SchemaProblem[] {
  // Most nodes have no junctors; this check runs on every node of every CRD.
  if (!node.allOf && !node.anyOf && !node.oneOf && !node.not) return [];
  const problems: SchemaProblem[] = [];
  // The two int-or-string shapes are the only places where a clause may name a type.
  const intOrStringAnyOf = isIntOrStringAnyOf(node.anyOf as SchemaNode[] | undefined);
  const intOrStringAllOf = isIntOrStringAnyOf(node.allOf?.[0]?.anyOf as SchemaNode[] | undefined);
  forEachClause(node, (clause, where, index) => {
    const label = index === undefined ? where : `${where}[${index}]`;
    if (!(where === 'anyOf' && intOrStringAnyOf)) {
      checkClause(clause, path, label, problems, where === 'allOf' && index === 0 && intOrStringAllOf);
    }
    checkCompleteness(clause, node, path, label, problems);
  });
  return problems;
}

type Junctor = 'allOf' | 'anyOf' | 'oneOf' | 'not';

function forEachClause(node: JSONSchemaProps, visit: (clause: JSONSchemaProps, where: Junctor, index?: number) => void): void {
  node.allOf?.forEach((clause, i) => visit(clause, 'allOf', i));
  node.anyOf?.forEach((clause, i) => visit(clause, 'anyOf', i));
  node.oneOf?.forEach((clause, i) => visit(clause, 'oneOf', i));
  if (node.not) visit(node.not, 'not');
}

/** A clause and everything under it: no structural-only keywords, no metadata, valid patterns. */
function checkClause(clause: JSONSchemaProps, path: string, label: string, problems: SchemaProblem[], skipAnyOf = false): void {
  for (const keyword of structuralOnly) {
    if (clause[keyword] !== undefined) {
      problems.push({ path, message: `${label}: ${keyword} is not allowed inside allOf, anyOf, oneOf or not (only in the schema itself)` });
    }
  }
  if (clause.properties?.metadata) {
    problems.push({ path, message: `${label}: metadata must not be restricted inside allOf, anyOf, oneOf or not` });
  }
  if (clause.pattern !== undefined) {
    const compiled = compilePattern(clause.pattern);
    if ('invalid' in compiled) problems.push({ path, message: `${label}: pattern is not a valid regular expression: ${compiled.invalid}` });
  }
  if (clause.items) checkClause(clause.items, path, `${label}.items`, problems);
  for (const [name, property] of Object.entries(clause.properties ?? {})) {
    checkClause(property, path, `${label}.properties.${name}`, problems);
  }
  forEachClause(clause, (inner, where, index) => {
    if (where === 'anyOf' && skipAnyOf) return;
    checkClause(inner, path, index === undefined ? `${label}.${where}` : `${label}.${where}[${index}]`, problems);
  });
}

function checkCompleteness(clause: JSONSchemaProps, structural: JSONSchemaProps, path: string, label: string, problems: SchemaProblem[]): void {
  if (clause.items) {
    if (structural.items) checkCompleteness(clause.items, structural.items, itemPath(path), `${label}.items`, problems);
    else problems.push({ path, message: `${label} restricts items, so the schema itself must specify items` });
  }
  for (const [name, property] of Object.entries(clause.properties ?? {})) {
    const specified = structural.properties?.[name];
    if (specified) checkCompleteness(property, specified, propertyPath(path, name), `${label}.properties.${name}`, problems);
    else problems.push({ path: propertyPath(path, name), message: `is restricted in ${label} but not specified in properties` });
  }
  forEachClause(clause, (inner, where, index) =>
    checkCompleteness(inner, structural, path, index === undefined ? `${label}.${where}` : `${label}.${where}[${index}]`, problems),
  );
}
