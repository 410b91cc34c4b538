import type { Kind } from '../api/kind.js';
import { AdmissionDenied, isBug } from './deny.js';
import { jsonPatch } from './json-patch.js';
import type { AdmissionRequest, AdmissionResponse, Defaulter, ValidationResult, Validators, WebhookContext } from './types.js';

/** Answers one admission request; throws only a bug (the server turns it into a 500). */
export type AdmissionHandler = (request: AdmissionRequest, context: WebhookContext) => Promise<AdmissionResponse>;

// The API server rejects longer warnings; controller-runtime leaves it to the author, we cut.
const MAX_WARNING_LENGTH = 120;

function warningsOf(list: readonly string[] | undefined): string[] | undefined {
  const kept = (list ?? []).filter((w) => w !== '').map((w) => (w.length > MAX_WARNING_LENGTH ? `${w.slice(0, MAX_WARNING_LENGTH - 1)}…` : w));
  return kept.length > 0 ? kept : undefined;
}

function allowed(uid: string, warnings?: readonly string[]): AdmissionResponse {
  const kept = warningsOf(warnings);
  return { uid, allowed: true, ...(kept ? { warnings: kept } : {}) };
}

/**
 * The response to an error a handler threw: a {@link AdmissionDenied} keeps its code and
 * reason, any other error is a refusal with 403 and its message. Bugs are rethrown.
 */
function refused(request: AdmissionRequest, error: unknown): AdmissionResponse {
  const { uid } = request;
  if (isBug(error)) throw error;
  if (error instanceof AdmissionDenied) {
    const kept = warningsOf(error.warnings);
    return {
      uid,
      allowed: false,
      status: error.statusFor(request),
      ...(kept ? { warnings: kept } : {}),
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { uid, allowed: false, status: { code: 403, message, reason: 'Forbidden' } };
}

/**
 * A defaulting webhook: `fn` mutates a copy of the request's object and the response is
 * the JSON Patch from the raw object to it. DELETE and CONNECT are allowed untouched.
 */
export function defaultingHandler<T>(fn: Defaulter<T>): AdmissionHandler {
  return async (request, context) => {
    if (request.operation !== 'CREATE' && request.operation !== 'UPDATE') return allowed(request.uid);
    const raw = request.object ?? {};
    const object = structuredClone(raw);
    try {
      await fn(object as T, request, context);
    } catch (error) {
      return refused(request, error);
    }
    const patch = jsonPatch(raw, object);
    if (patch.length === 0) return allowed(request.uid);
    return { uid: request.uid, allowed: true, patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(patch)).toString('base64') };
  };
}

/** A validating webhook: the handler of the request's operation decides; CONNECT is allowed. */
export function validatingHandler<T>(validators: Validators<T>): AdmissionHandler {
  return async (request, context) => {
    const object = (request.object ?? undefined) as T;
    const oldObject = (request.oldObject ?? undefined) as T;
    let result: void | ValidationResult = undefined;
    try {
      switch (request.operation) {
        case 'CREATE':
          result = await validators.create?.(object, request, context);
          break;
        case 'UPDATE':
          result = await validators.update?.(oldObject, object, request, context);
          break;
        case 'DELETE':
          result = await validators.delete?.(oldObject, request, context);
          break;
        default:
          break;
      }
    } catch (error) {
      return refused(request, error);
    }
    return allowed(request.uid, result?.warnings);
  };
}

/**
 * `handler`, answering only requests for `kind`: a webhook configuration whose rules send it
 * another kind (a copied rule, a wrong path) would hand the handler objects of a shape it
 * does not know, so such a request is refused with 400 saying what was sent where. Any
 * version of the kind passes: the configuration's rules name the versions.
 */
export function forKind(kind: Pick<Kind, 'group' | 'kind'>, handler: AdmissionHandler): AdmissionHandler {
  return (request, context) => {
    const sent = request.kind;
    if (sent.group === kind.group && sent.kind === kind.kind) return handler(request, context);
    const name = (k: { group: string; kind: string }) => (k.group ? `${k.kind}.${k.group}` : k.kind);
    const message = `this webhook serves ${name(kind)}, but the API server sent ${name(sent)}: check the rules of the webhook configuration that points at it`;
    return Promise.resolve({ uid: request.uid, allowed: false, status: { code: 400, message, reason: 'BadRequest' } });
  };
}
