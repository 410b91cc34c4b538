/** The `Status` object the API server returns with every failed request. */
export interface ApiStatus {
  kind?: string;
  apiVersion?: string;
  status?: string;
  message?: string;
  /** CamelCase machine-readable reason, e.g. `NotFound`, `Conflict`, `AlreadyExists`. */
  reason?: string;
  details?: {
    name?: string;
    group?: string;
    kind?: string;
    uid?: string;
    causes?: { reason?: string; message?: string; field?: string }[];
    retryAfterSeconds?: number;
  };
  code?: number;
}

/**
 * A request the API server answered with an error status. Branch on it with
 * {@link isNotFound}, {@link isConflict}, {@link isAlreadyExists}, {@link isGone},
 * {@link isInvalid} rather than on the message.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  /** HTTP status code, e.g. 404. */
  readonly code: number;
  /** The Status reason, e.g. `NotFound`; `''` when the server sent none. */
  readonly reason: string;
  /** The full Status object, when the server sent one. */
  readonly status: ApiStatus | undefined;
  /** `METHOD path` of the failed request. */
  readonly request: string;

  constructor(code: number, status: ApiStatus | undefined, request: string, fallbackMessage: string) {
    super(status?.message || fallbackMessage);
    this.code = code;
    this.reason = status?.reason ?? '';
    this.status = status;
    this.request = request;
  }
}

function hasReason(error: unknown, reason: string): boolean {
  return error instanceof ApiError && error.reason === reason;
}

/**
 * The object does not exist: HTTP 404, reason `NotFound`. A resource the API server does
 * not serve at all (a CRD not installed) is a different error, not this one.
 */
export function isNotFound(error: unknown): boolean {
  return hasReason(error, 'NotFound');
}

/**
 * The write lost an optimistic-concurrency race (stale `resourceVersion`) or an apply
 * conflict: HTTP 409, reason `Conflict`. Re-read and retry, e.g. with `retryOnConflict`.
 */
export function isConflict(error: unknown): boolean {
  return hasReason(error, 'Conflict');
}

/** A create hit an existing object of the same name: HTTP 409, reason `AlreadyExists`. */
export function isAlreadyExists(error: unknown): boolean {
  return hasReason(error, 'AlreadyExists');
}

/**
 * The resource version asked for is older than etcd keeps (compaction): HTTP 410, reason
 * `Expired` or `Gone`. Watches relist on it.
 */
export function isGone(error: unknown): boolean {
  return error instanceof ApiError && error.code === 410;
}

/** The object failed validation: HTTP 422, reason `Invalid`; causes are in `status.details`. */
export function isInvalid(error: unknown): boolean {
  return hasReason(error, 'Invalid');
}

/**
 * The caller may not do this (HTTP 403, reason `Forbidden`): missing RBAC, or an admission
 * plugin's refusal such as growing a claim whose StorageClass does not allow expansion.
 */
export function isForbidden(error: unknown): boolean {
  return hasReason(error, 'Forbidden');
}
