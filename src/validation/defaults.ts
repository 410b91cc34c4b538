import { prune, type Json, type SchemaNode } from '@opgen/runtime/internal/semantics';
import { isShared } from '../schema/shared.js';
import type { JSONSchemaProps } from '../schema/types.js';
import { itemPath, propertyPath, type SchemaProblem } from './path.js';
import { validateValue } from './value.js';

/**
 * Checks every `default` in the structural part of a CRD schema as the API server does:
 * the default must validate against the schema it sits on (type, enum, limits, pattern,
 * formats, items, required, …) and must survive pruning unchanged (no fields the schema
 * does not specify). Defaults under `additionalProperties` are not applied by the API
 * server and are not visited, like there.
 */
export function checkDefaults(schema: JSONSchemaProps): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  visit(schema, '', problems);
  return problems;
}

/** Shared (frozen) built-in subtrees whose defaults are valid: the path only shapes the messages. */
const clean = new WeakSet<JSONSchemaProps>();

function visit(node: JSONSchemaProps, path: string, problems: SchemaProblem[]): void {
  const memo = isShared(node);
  if (memo && clean.has(node)) return;
  const before = problems.length;
  visitOwn(node, path, problems);
  if (memo && problems.length === before) clean.add(node);
}

function visitOwn(node: JSONSchemaProps, path: string, problems: SchemaProblem[]): void {
  // A null default is no default to the API server.
  if (node.default !== undefined && node.default !== null) {
    for (const problem of validateValue(node, node.default, path)) {
      problems.push({ path: problem.path, message: `default ${JSON.stringify(node.default)} is invalid: ${problem.message}` });
    }
    // A default is pruned as a field's value: below the root, apiVersion, kind and metadata are ordinary fields.
    if (prune(structuredClone(node.default) as Json, node as SchemaNode, false).length > 0) {
      problems.push({ path, message: `default ${JSON.stringify(node.default)} has fields the schema does not specify (they would be pruned)` });
    }
  }
  if (node.items) visit(node.items, itemPath(path), problems);
  for (const [name, property] of Object.entries(node.properties ?? {})) visit(property, propertyPath(path, name), problems);
}
