import type { Logger } from '../log/index.js';
import type { KubeObject } from '../object.js';

/** The user who sent a request, as the API server authenticated them. */
export interface UserInfo {
  username?: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

/** `admission.k8s.io` AdmissionRequest, the same in v1 and v1beta1. */
export interface AdmissionRequest {
  uid: string;
  kind: { group: string; version: string; kind: string };
  resource: { group: string; version: string; resource: string };
  subResource?: string;
  name?: string;
  namespace?: string;
  operation: 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';
  userInfo: UserInfo;
  object?: KubeObject | null;
  oldObject?: KubeObject | null;
  dryRun?: boolean;
  options?: unknown;
}

/** The `status` of a response: the code and message the client sees on a refusal. */
export interface AdmissionStatus {
  code: number;
  message: string;
  reason?: string;
  /** `Failure` on a refusal; the API server sets it when absent. */
  status?: 'Failure';
  /** The object refused and, per field, why (see `invalid`). */
  details?: { group?: string; kind?: string; name?: string; causes?: { reason: string; message: string; field: string }[] };
}

/** `admission.k8s.io` AdmissionResponse. */
export interface AdmissionResponse {
  uid: string;
  allowed: boolean;
  status?: AdmissionStatus;
  patchType?: 'JSONPatch';
  /** Base64 of the JSON Patch. */
  patch?: string;
  warnings?: string[];
}

/** What a validating handler may return: warnings the client shows even on allow. */
export interface ValidationResult {
  warnings?: string[];
}

/**
 * What every admission and conversion handler gets besides the object.
 *
 * @example
 * webhook(mgr).for(Widget).validate({
 *   create: async (widget, request, { signal, log }) => {
 *     const quota = await mgr.client.get(Quota, 'default', widget.metadata?.namespace, { signal });
 *     log.debug({ quota: quota?.spec }, 'checked the quota');
 *   },
 * });
 */
export interface WebhookContext {
  /**
   * Aborted once the API server no longer waits for the answer: the webhook's
   * `timeoutSeconds` has passed (the API server sends what is left of it as the URL's
   * `timeout` parameter) or it closed the connection. Pass it to API calls and anything slow.
   */
  signal: AbortSignal;
  /** The webhook server's logger with the webhook's path and the request's uid. */
  log: Logger;
}

/** Mutates `object` in place; DELETE never reaches it. */
export type Defaulter<T> = (object: T, request: AdmissionRequest, context: WebhookContext) => void | Promise<void>;

/** Validating handlers: throw (or {@link deny}) to refuse; an absent one allows. */
export interface Validators<T> {
  /** Checks an object being created. */
  create?: (object: T, request: AdmissionRequest, context: WebhookContext) => void | ValidationResult | Promise<void | ValidationResult>;
  /** Checks a change: the stored object and the one asked for. */
  update?: (oldObject: T, object: T, request: AdmissionRequest, context: WebhookContext) => void | ValidationResult | Promise<void | ValidationResult>;
  /** Checks a deletion of the stored object. */
  delete?: (object: T, request: AdmissionRequest, context: WebhookContext) => void | ValidationResult | Promise<void | ValidationResult>;
}

/** `apiextensions.k8s.io` ConversionRequest. */
export interface ConversionRequest {
  uid: string;
  desiredAPIVersion: string;
  objects: KubeObject[];
}

/** `apiextensions.k8s.io` ConversionResponse. */
export interface ConversionResponse {
  uid: string;
  convertedObjects: KubeObject[];
  result: { status: 'Success' | 'Failure'; message?: string };
}
