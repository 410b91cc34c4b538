/**
 * Certificates the runtime's HTTPS servers present: self-signed pairs minted in process
 * (ECDSA P-256, DER built by hand), CA-issued leaves, and serving certificates read from
 * files (a mounted cert-manager Secret) and re-read when they change.
 *
 * Public surface:
 * - `selfSignedCertificate({ hosts?, validDays?, validMs? })` → {@link CertificateKeyPair}.
 * - `issueCertificate({ ca?, commonName?, hosts?, validMs?, issuer? })`: a CA, or a leaf
 *   signed by `issuer`.
 * - `servingCertificate(files | undefined, log, server?)` → {@link ServingCertificate}:
 *   `current`, `watch(onChange)`.
 *
 * Used by the manager's metrics server and the webhook server; tests get
 * `selfSignedCertificate` from `@opgen/runtime/testing`.
 *
 * @example
 * const pair = selfSignedCertificate({ hosts: ['localhost'], validDays: 1 });
 * https.createServer({ cert: pair.certPem, key: pair.keyPem }, handler);
 *
 * @module
 */
export { CLOCK_SKEW_MS, issueCertificate, selfSignedCertificate, type CertificateKeyPair, type SelfSignedOptions } from './self-signed-cert.js';
export { servingCertificate, type CertificateFiles, type ServingCertificate } from './serving-cert.js';
