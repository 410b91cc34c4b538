/**
 * The part of a Job's update validation (kubernetes/pkg/apis/batch/validation
 * `ValidateJobSpecUpdate`) that an operator's writes run into most: completions, the selector,
 * the pod template and the completion mode cannot change once the Job exists. The exceptions
 * for a suspended Job's scheduling fields are not reproduced, and the refused template is
 * quoted as JSON where the API server prints its internal Go type.
 */
import { formatValue, type FieldError } from './errors.js';
import { isObject, type Obj } from './storage.js';
import { deepEqual } from './strategy.js';

const IMMUTABLE = ['completions', 'selector', 'template', 'completionMode'];

/** `ValidateJobSpecUpdate`'s immutable fields, in its order; nothing on create. */
export function validateJob(object: Obj, old: Obj | undefined): FieldError[] {
  if (!old) return [];
  const spec = isObject(object.spec) ? object.spec : {};
  const oldSpec = isObject(old.spec) ? old.spec : {};
  return IMMUTABLE.filter((field) => !deepEqual(spec[field] ?? null, oldSpec[field] ?? null)).map((field) => ({
    type: 'FieldValueInvalid',
    field: `spec.${field}`,
    value: formatValue(spec[field] ?? null),
    detail: 'field is immutable',
  }));
}
