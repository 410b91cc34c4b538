import { AdmissionDenied } from './deny.js';
import type { AdmissionRequest, AdmissionStatus } from './types.js';

/**
 * What is wrong with a field, as `k8s.io/apimachinery/pkg/util/validation/field` names it:
 * `Required`, `Invalid` … The cause's `reason` in the API server's answer is the `FieldValue…`
 * form (`FieldValueRequired`, `FieldValueInvalid`), as with Go's `field.ErrorList`.
 */
export type FieldErrorType =
  | 'Required'
  | 'Invalid'
  | 'NotSupported'
  | 'Forbidden'
  | 'Duplicate'
  | 'NotFound'
  | 'TooLong'
  | 'TooMany'
  | 'TypeInvalid'
  | 'Internal';

/** One field error: Go's `field.Invalid(path, value, detail)` and its siblings as data. */
export interface FieldError {
  /** The field's path as the API server writes it, e.g. `spec.schedule` or `spec.ports[0].name`. */
  field: string;
  type: FieldErrorType;
  /** The offending value, shown in the message; left out of it when absent (and always for `Required`, `Forbidden`, `TooLong`, `Internal`). */
  value?: unknown;
  /** What is wrong, for people: `must be a cron schedule`. */
  detail?: string;
}

const causeType: Readonly<Record<FieldErrorType, string>> = {
  Required: 'FieldValueRequired',
  Invalid: 'FieldValueInvalid',
  NotSupported: 'FieldValueNotSupported',
  Forbidden: 'FieldValueForbidden',
  Duplicate: 'FieldValueDuplicate',
  NotFound: 'FieldValueNotFound',
  TooLong: 'FieldValueTooLong',
  TooMany: 'FieldValueTooMany',
  TypeInvalid: 'FieldValueTypeInvalid',
  Internal: 'InternalError',
};

const label: Readonly<Record<FieldErrorType, string>> = {
  Required: 'Required value',
  Invalid: 'Invalid value',
  NotSupported: 'Unsupported value',
  Forbidden: 'Forbidden',
  Duplicate: 'Duplicate value',
  NotFound: 'Not found',
  TooLong: 'Too long',
  TooMany: 'Too many',
  TypeInvalid: 'Invalid value',
  Internal: 'Internal error',
};

/** Types whose message never shows the value (it may be huge or secret), as apimachinery's. */
const valueless = new Set<FieldErrorType>(['Required', 'Forbidden', 'TooLong', 'Internal']);

/** The message of one error without its field: `Invalid value: "x": must be …`. */
function body(error: FieldError): string {
  let text = label[error.type];
  if (!valueless.has(error.type) && error.value !== undefined) {
    const value = error.value;
    text += `: ${typeof value === 'number' || typeof value === 'boolean' ? String(value) : JSON.stringify(value)}`;
  }
  return error.detail ? `${text}: ${error.detail}` : text;
}

/** A refusal with field causes; see {@link invalid}. */
export class InvalidFields extends AdmissionDenied {
  readonly errors: readonly FieldError[];

  constructor(errors: readonly FieldError[], warnings?: string[]) {
    super(`invalid: ${aggregate(errors)}`, { code: 422, reason: 'Invalid', warnings });
    this.name = 'InvalidFields';
    this.errors = errors;
  }

  /** The Status `apierrors.NewInvalid` builds, for the kind and name of the object under review. */
  override statusFor(request: AdmissionRequest): AdmissionStatus {
    const { group, kind } = request.kind;
    const name = request.name ?? request.object?.metadata?.name ?? '';
    const qualified = group ? `${kind}.${group}` : kind;
    const messages = aggregate(this.errors);
    return {
      status: 'Failure',
      code: 422,
      reason: 'Invalid',
      message: `${qualified} ${JSON.stringify(name)} is invalid${messages ? `: ${messages}` : ''}`,
      details: { group, kind, name, causes: this.errors.map((e) => ({ reason: causeType[e.type], message: body(e), field: e.field })) },
    };
  }
}

/** The errors as one line, duplicates once, in brackets when more than one (Go's aggregate). */
function aggregate(errors: readonly FieldError[]): string {
  const unique = [...new Set(errors.map((e) => `${e.field}: ${body(e)}`))];
  return unique.length > 1 ? `[${unique.join(', ')}]` : (unique[0] ?? '');
}

/**
 * Refuses the object with one cause per field, as Go's `apierrors.NewInvalid(gk, name,
 * field.ErrorList)`: the client gets 422 `Invalid`, the message names the kind, the object
 * and every field, and `status.details.causes` lists them (`kubectl` prints each).
 *
 * @example
 * webhook(mgr)
 *   .for(CronJob)
 *   .validate({
 *     create: (cronJob) => {
 *       const errors: FieldError[] = [];
 *       if (!isSchedule(cronJob.spec.schedule))
 *         errors.push({
 *           field: 'spec.schedule',
 *           type: 'Invalid',
 *           value: cronJob.spec.schedule,
 *           detail: 'must be a cron schedule',
 *         });
 *       if (cronJob.metadata.name.length > 52)
 *         errors.push({
 *           field: 'metadata.name',
 *           type: 'Invalid',
 *           value: cronJob.metadata.name,
 *           detail: 'must be no more than 52 characters',
 *         });
 *       if (errors.length) throw invalid(errors);
 *     },
 *   });
 */
export function invalid(errors: readonly FieldError[], options: { warnings?: string[] } = {}): InvalidFields {
  return new InvalidFields(errors, options.warnings);
}
