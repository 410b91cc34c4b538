/**
 * The API server's refusals of a CRD schema (apiextensions-apiserver's structural-schema and
 * CRD schema validation), checked before anything is written so that `opgen manifests` never
 * emits a CRD the API server would reject. The rules are the semantics core's
 * ({@link structuralFindings}, the memory cluster's CRD admission); this file words each
 * finding as the CLI's problem at a data path, in the API server's own words.
 *
 * @module
 */
import { errorBody, structuralFindings, type SchemaFinding, type SchemaNode } from '@opgen/runtime/internal/semantics';
import type { JSONSchemaProps } from '../schema/types.js';
import type { SchemaProblem } from './path.js';
import { unknownKeywords } from './shapes.js';

export { checkDefaults } from './defaults.js';
export type { SchemaProblem } from './path.js';

/**
 * Checks a CRD version's `openAPIV3Schema` as the API server does when the CRD is created
 * (types, items, junctors, list and map types, embedded resources, root metadata, patterns,
 * validation-rule shapes), and for keywords no CRD schema has.
 *
 * @example
 * checkStructural({ type: 'object', properties: { spec: { type: 'array' } } });
 * // [{ path: 'spec', message: 'items: Required value: must be specified' }]
 */
export function checkStructural(schema: JSONSchemaProps): SchemaProblem[] {
  return [...unknownKeywords(schema), ...structuralFindings(schema as SchemaNode).map(problemOf)];
}

/** A core finding as the CLI prints it after its data path: `keyword: Required value: …`. */
function problemOf(found: SchemaFinding): SchemaProblem {
  const body = errorBody(found.error);
  return { path: found.path, message: found.keyword === '' ? body : `${found.keyword}: ${body}` };
}
