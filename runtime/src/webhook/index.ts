export { webhook, conversion, serveWebhooks, type WebhookServerOptions, type WebhookBuilder, type WebhookFor, type ConversionFor, type ConversionSpokes } from './builder.js';
export { deny, AdmissionDenied } from './deny.js';
export { invalid, InvalidFields, type FieldError, type FieldErrorType } from './invalid.js';
export { stash, unstash, STASH_ANNOTATION } from './stash.js';
export { mutatePath, validatePath, CONVERT_PATH } from './paths.js';
export type { WebhookServer } from './server.js';
export type { SpokeConversion } from './conversion.js';
export type * from './types.js';
export type { BuiltInCertificateOptions } from './builtin-certs.js';
