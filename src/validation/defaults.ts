import { defaultFindings, type SchemaNode } from '@opgen/runtime/internal/semantics';
import type { JSONSchemaProps } from '../schema/types.js';
import type { SchemaProblem } from './path.js';
import { phrase } from './value.js';

/**
 * Checks every `default` in the structural part of a CRD schema as the API server does (the
 * semantics core's {@link defaultFindings}, the memory cluster's CRD admission): it must
 * validate against the schema it sits on and survive pruning unchanged. Worded as the CLI
 * words value problems: `default "1" is invalid: must be of type integer, got string`.
 *
 * @example
 * checkDefaults({ type: 'object', properties: { n: { type: 'integer', default: '1' } } });
 * // [{ path: 'n', message: 'default "1" is invalid: must be of type integer, got string' }]
 */
export function checkDefaults(schema: JSONSchemaProps): SchemaProblem[] {
  // A value error without its check is a note kube-openapi adds beside one that has it.
  return defaultFindings(schema as SchemaNode).flatMap((found) => (found.error.check ? [{ path: found.path, message: `default ${JSON.stringify(found.default)} is invalid: ${phrase(found.error)}` }] : []));
}
