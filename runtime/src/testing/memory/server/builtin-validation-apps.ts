/**
 * The part of the apps/v1 kinds' validation (kubernetes/pkg/apis/apps/validation) that an
 * operator's writes run into most: counts that must not be negative, and a StatefulSet's spec
 * fields that cannot change after creation. Selector, pod template and strategy validation is
 * not reproduced (the errors it would report in between are missing, not invented).
 */
import type { FieldError } from './errors.js';
import type { Obj } from './storage.js';
import { deepEqual } from './strategy.js';

const isObject = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** `ValidateNonnegativeField` for each named field of `spec` that holds a number. */
function nonNegative(spec: Obj, fields: string[]): FieldError[] {
  const errors: FieldError[] = [];
  for (const field of fields) {
    const value = spec[field];
    if (typeof value === 'number' && value < 0) errors.push({ type: 'FieldValueInvalid', field: `spec.${field}`, value: String(value), detail: 'must be greater than or equal to 0' });
  }
  return errors;
}

/** `ValidateDeploymentSpec`: `replicas` is checked first, the other counts after the template and strategy. */
export function validateDeployment(object: Obj): FieldError[] {
  const spec = object.spec;
  if (!isObject(spec)) return [];
  return [...nonNegative(spec, ['replicas']), ...nonNegative(spec, ['minReadySeconds', 'revisionHistoryLimit', 'progressDeadlineSeconds'])];
}

/** `ValidateReplicaSetSpec`'s counts. */
export function validateReplicaSet(object: Obj): FieldError[] {
  const spec = object.spec;
  return isObject(spec) ? nonNegative(spec, ['replicas', 'minReadySeconds']) : [];
}

/** The spec fields a StatefulSet update may change; any other change is refused whole. */
const STATEFULSET_MUTABLE = ['replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy', 'minReadySeconds'];

const STATEFULSET_FORBIDDEN =
  "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden";

/**
 * `ValidateStatefulSet` / `ValidateStatefulSetUpdate`: the counts, then on update the spec with
 * the mutable fields taken from the stored object must equal the stored spec (a claim
 * template, the service name, the selector cannot change).
 */
export function validateStatefulSet(object: Obj, old: Obj | undefined): FieldError[] {
  const spec = isObject(object.spec) ? object.spec : {};
  const errors = nonNegative(spec, ['replicas', 'minReadySeconds']);
  if (old) {
    const oldSpec = isObject(old.spec) ? old.spec : {};
    const withOldMutable: Obj = { ...spec };
    for (const field of STATEFULSET_MUTABLE) {
      if (field in oldSpec) withOldMutable[field] = oldSpec[field];
      else delete withOldMutable[field];
    }
    if (!deepEqual(withOldMutable, oldSpec)) errors.push({ type: 'FieldValueForbidden', field: 'spec', detail: STATEFULSET_FORBIDDEN });
  }
  return errors;
}
