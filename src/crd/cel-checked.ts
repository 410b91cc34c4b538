import { checkCelTypes, type CelTypeProblem } from '@opgen/runtime/internal/cel';
import type { JSONSchemaProps } from '../schema/types.js';
import { notesDir, remembered } from '../validation/remembered.js';

/**
 * {@link checkCelTypes}, skipped for a schema this build of opgen found without problems
 * before (see validation/remembered.ts): type-checking and costing every rule, loading cel-js
 * included, is most of what CEL rules add to a run of `opgen manifests`. A schema without
 * rules has nothing to check: it is neither serialised nor hashed to be remembered (a pod
 * template makes a CRD's schema half a megabyte).
 */
export function celTypeProblems(schema: JSONSchemaProps, dir: string | undefined = notesDir()): CelTypeProblem[] {
  if (!hasRules(schema)) return [];
  return remembered('cel-types', JSON.stringify(schema), () => checkCelTypes(schema), (problems) => problems.length === 0, [], dir);
}

/** Frozen (shared) values found without rules: a built-in type shared by every kind is searched once. */
const withoutRules = new WeakSet<object>();

/** Whether `x-kubernetes-validations` is a key anywhere in `value`, which the CEL checks read. */
function hasRules(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (withoutRules.has(value)) return false;
  const found = Array.isArray(value) ? value.some(hasRules) : 'x-kubernetes-validations' in value || Object.values(value).some(hasRules);
  if (!found && Object.isFrozen(value)) withoutRules.add(value);
  return found;
}
