/**
 * The `Status` bodies the API server answers failed requests with, built the way
 * apimachinery's `k8s.io/apimachinery/pkg/api/errors` constructors build them, so a test
 * on the memory cluster sees the same code, reason, details and message as one on a real
 * control plane.
 */
// Field errors print the same in the server's 422s as in the schema part's: one definition, in schema/.
import { errorBody, fieldErrorText, invalidMessage } from '../../../internal/semantics/messages.js';
import type { FieldError, FieldErrorType } from '../../../internal/semantics/types.js';

export { errorBody, fieldErrorText, type FieldError, type FieldErrorType };

/** A cause of an Invalid (422) or Forbidden answer: one field error. */
export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

/** The wire form of `meta/v1 Status`. */
export interface StatusBody {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never>;
  status: 'Failure' | 'Success';
  message?: string;
  reason?: string;
  details?: { name?: string; group?: string; kind?: string; uid?: string; causes?: StatusCause[]; retryAfterSeconds?: number };
  code: number;
}

/** A request the memory API server refuses: carries the HTTP code and the Status body it answers with. */
export class StatusError extends Error {
  override readonly name = 'StatusError';
  /** `text`: the answer is this plain text rather than the Status (the API server's mux answering an unknown path). */
  constructor(
    readonly status: StatusBody,
    readonly text?: string,
  ) {
    super(text ?? status.message ?? status.reason ?? `HTTP ${status.code}`);
  }
  get code(): number {
    return this.status.code;
  }
}

/** Group and resource, as `schema.GroupResource`: `configmaps`, `deployments.apps`. */
export interface GroupResource {
  group: string;
  resource: string;
}

/** Group and kind, as `schema.GroupKind`: `ConfigMap`, `Deployment.apps`. */
export interface GroupKind {
  group: string;
  kind: string;
}

const qualified = (group: string, name: string): string => (group === '' ? name : `${name}.${group}`);

/** `details` as the API server serialises them: empty strings are left out (`omitempty`). */
function details(fields: { name?: string; group?: string; kind?: string; uid?: string; causes?: StatusCause[] }): StatusBody['details'] {
  const out: NonNullable<StatusBody['details']> = {};
  if (fields.name) out.name = fields.name;
  if (fields.group) out.group = fields.group;
  if (fields.kind) out.kind = fields.kind;
  if (fields.uid) out.uid = fields.uid;
  if (fields.causes && fields.causes.length > 0) out.causes = fields.causes;
  return out;
}

function failure(code: number, reason: string, message: string, detail?: StatusBody['details']): StatusError {
  const status: StatusBody = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code };
  if (detail && Object.keys(detail).length > 0) status.details = detail;
  return new StatusError(status);
}

export function notFound(resource: GroupResource, name: string): StatusError {
  return failure(404, 'NotFound', `${qualified(resource.group, resource.resource)} "${name}" not found`, details({ name, group: resource.group, kind: resource.resource }));
}

export function alreadyExists(resource: GroupResource, name: string): StatusError {
  return failure(409, 'AlreadyExists', `${qualified(resource.group, resource.resource)} "${name}" already exists`, details({ name, group: resource.group, kind: resource.resource }));
}

/** The text of `registry.OptimisticLockErrorMsg`. */
export const OPTIMISTIC_LOCK_MESSAGE = 'the object has been modified; please apply your changes to the latest version and try again';

export function conflict(resource: GroupResource, name: string, cause: string): StatusError {
  return failure(409, 'Conflict', `Operation cannot be fulfilled on ${qualified(resource.group, resource.resource)} "${name}": ${cause}`, details({ name, group: resource.group, kind: resource.resource }));
}


/** How `field.Error` prints a value: strings quoted, numbers and booleans bare, `null` for nil. */
export function formatValue(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/**
 * 422 Invalid, as `apierrors.NewInvalid`: the message is `Kind "name" is invalid: ` and the
 * errors' aggregate (one error bare, several in brackets), each also a cause.
 */
export function invalid(kind: GroupKind, name: string, errors: FieldError[]): StatusError {
  const causes = errors.map((e) => ({ reason: e.type, message: errorBody(e), field: e.field }));
  return failure(422, 'Invalid', invalidMessage(qualified(kind.group, kind.kind), name, errors), details({ name, group: kind.group, kind: kind.kind, causes }));
}

export function badRequest(message: string): StatusError {
  return failure(400, 'BadRequest', message);
}

export function methodNotAllowed(verb: string, resource: GroupResource): StatusError {
  return failure(405, 'MethodNotAllowed', `${verb} is not supported on resources of kind "${qualified(resource.group, resource.resource)}"`, details({ group: resource.group, kind: resource.resource }));
}

/** 406, as `negotiation.NewNotAcceptableError`. */
export function notAcceptable(supported: string[]): StatusError {
  return failure(406, 'NotAcceptable', `only the following media types are accepted: ${supported.join(', ')}`);
}

/** 415, as `negotiation.NewUnsupportedMediaTypeError`: a body (or patch) type the server does not decode. */
export function unsupportedMediaType(supported: string[]): StatusError {
  return failure(415, 'UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: ${supported.join(', ')}`);
}

export function forbidden(resource: GroupResource, name: string, reason: string, causes?: StatusCause[]): StatusError {
  return failure(403, 'Forbidden', `${qualified(resource.group, resource.resource)} "${name}" is forbidden: ${reason}`, details({ name, group: resource.group, kind: resource.resource, causes }));
}

/** 410 Expired: a resourceVersion or continue token older than the history the server keeps. */
export function expired(message: string): StatusError {
  return failure(410, 'Expired', message);
}

/** 404 for a URL nothing is served at (a CRD not installed): the API server's mux answers plain text, no Status. */
export function pathNotFound(): StatusError {
  return new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'NotFound', code: 404 }, '404 page not found\n');
}

export function internalError(message: string): StatusError {
  return failure(500, 'InternalError', `Internal error occurred: ${message}`, details({ causes: [{ message }] }));
}

/**
 * A request the memory cluster does not implement: a loud 501 naming what is missing,
 * never a silent success or a guess.
 */
export function notImplemented(what: string): StatusError {
  return failure(501, 'NotImplemented', `the memory cluster does not serve ${what}; run this test against the real control plane`);
}

/** The `Status` a delete of a built-in kind answers with once the object is gone for good (no `code`: the registry sets none). */
export function successStatus(resource: GroupResource, name: string, uid: string | undefined): Omit<StatusBody, 'code'> {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details: details({ name, group: resource.group, kind: resource.resource, uid }) };
}

/** A 500 as the API server writes an error it does not classify (a storage error, a strategic merge patch's malformed directive): the bare message, no reason. */
export function storageFailure(message: string): StatusError {
  return new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, code: 500 });
}

/** The etcd key of an object, as storage errors print it: `/registry/[group/]resource/[namespace/]name` (built-in groups leave the group out). */
export function registryKey(group: string, resource: string, custom: boolean, namespace: string | undefined, name: string): string {
  return ['/registry', ...(custom ? [group] : []), resource, ...(namespace ? [namespace] : []), name].join('/');
}
