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
  /** Seconds the server asked the client to wait before trying again (`Retry-After`), if it did. */
  readonly retryAfterSeconds: number | undefined;

  constructor(code: number, status: ApiStatus | undefined, request: string, fallbackMessage: string, retryAfterSeconds?: number) {
    super(status?.message || fallbackMessage);
    this.code = code;
    this.reason = status?.reason || reasonForCode(code);
    this.status = status;
    this.request = request;
    this.retryAfterSeconds = retryAfterSeconds ?? status?.details?.retryAfterSeconds;
  }
}

/**
 * The reason a response without a Status body stands for, as client-go derives it: API
 * Priority and Fairness answers 429 with a plain-text body, proxies answer 5xx with HTML.
 * A bare 404 stays without a reason: it means the resource is not served at all (a CRD not
 * installed), not that an object is missing.
 */
function reasonForCode(code: number): string {
  switch (code) {
    case 400:
      return 'BadRequest';
    case 401:
      return 'Unauthorized';
    case 403:
      return 'Forbidden';
    case 405:
      return 'MethodNotAllowed';
    case 409:
      return 'Conflict';
    case 410:
      return 'Gone';
    case 422:
      return 'Invalid';
    case 429:
      return 'TooManyRequests';
    case 500:
      return 'InternalError';
    case 503:
      return 'ServiceUnavailable';
    case 504:
      return 'Timeout';
    default:
      return '';
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

/**
 * The API server (API Priority and Fairness, or max-in-flight limits) refused the request
 * for now: HTTP 429, reason `TooManyRequests`. The client retries these by itself, honouring
 * `Retry-After`; a caller sees one only after the retries ran out or the call's deadline passed.
 */
export function isTooManyRequests(error: unknown): boolean {
  return error instanceof ApiError && (error.code === 429 || error.reason === 'TooManyRequests');
}
