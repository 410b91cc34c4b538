/**
 * Admission and conversion webhooks, served by the manager's HTTPS server on
 * controller-runtime's paths (`/mutate-…`, `/validate-…`, `/convert`).
 *
 * Public surface:
 * - `webhook(mgr).for(Kind).default(fn).validate({ create?, update?, delete? })`: a
 *   defaulter mutates the object in place (the response is the JSON Patch); a validator
 *   throws (`deny(message)`, `invalid(fieldErrors)`) to refuse, or returns warnings.
 * - `conversion(mgr).for(Kind).hub(HubKind).spoke(SpokeKind, { toHub, fromHub })`;
 *   `stash` / `unstash` keep fields a version lacks in an annotation across a round trip.
 * - `serveWebhooks(mgr, { port?, certificate? })`: the server's port and certificate
 *   (files, a PEM pair, or `{ builtIn }`: a CA and certificate kept in a Secret and
 *   injected into the webhook configurations and CRDs).
 * - `mutatePath(kind)`, `validatePath(kind)`, `CONVERT_PATH`: the paths a kind is served on.
 *
 * Imported as `@opgen/runtime/webhook`; `webhook`, `conversion`, `serveWebhooks`, `deny`,
 * `invalid`, `stash`, `unstash`, `BuiltInCertificateOptions` and `SpokeConversion` are also
 * in the root export.
 *
 * @example
 * import { deny, webhook } from '@opgen/runtime';
 * import { validatePath, type WebhookContext } from '@opgen/runtime/webhook';
 *
 * webhook(mgr).for(Widget).validate({
 *   update: async (old, widget, _request, ctx: WebhookContext) => {
 *     if (widget.spec.size < old.spec.size) throw deny('size cannot shrink');
 *     ctx.log.debug({ name: widget.metadata?.name }, 'Size kept or grown');
 *   },
 * });
 * console.log(validatePath(Widget)); // /validate-example-com-v1-widget
 *
 * @module
 */
export { webhook, conversion, serveWebhooks, type WebhookHost, type WebhookBuilder, type WebhookFor, type ConversionFor, type ConversionSpokes } from './builder.js';
export type { WebhookServerOptions } from './managed-server.js';
export { deny, AdmissionDenied } from './deny.js';
export { invalid, InvalidFields, type FieldError, type FieldErrorType } from './invalid.js';
export { stash, unstash, STASH_ANNOTATION } from './stash.js';
export { mutatePath, validatePath, CONVERT_PATH } from './paths.js';
export type { WebhookServer } from './server.js';
export type { SpokeConversion } from './conversion.js';
export type * from './types.js';
export type { BuiltInCertificateOptions } from './builtin-certs.js';
