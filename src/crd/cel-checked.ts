import { checkCelTypes, type CelTypeProblem } from '@opgen/runtime/internal/cel';
import type { JSONSchemaProps } from '../schema/types.js';
import { notesDir, remembered } from '../validation/remembered.js';

/**
 * {@link checkCelTypes}, skipped for a schema this build of opgen found without problems
 * before (see validation/remembered.ts): type-checking and costing every rule, loading cel-js
 * included, is most of what CEL rules add to a run of `opgen manifests`.
 */
export function celTypeProblems(schema: JSONSchemaProps, dir: string | undefined = notesDir()): CelTypeProblem[] {
  return remembered('cel-types', JSON.stringify(schema), () => checkCelTypes(schema), (problems) => problems.length === 0, [], dir);
}
