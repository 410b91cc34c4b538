import type { SecureContextOptions, SecureVersion, TlsOptions } from 'node:tls';

/**
 * How the manager's HTTPS servers (webhooks, metrics) negotiate TLS, as Kubernetes' own
 * components configure it (`--tls-min-version`, `--tls-cipher-suites`) and
 * controller-runtime's `TLSOpts`.
 */
export interface TlsSettings {
  /** The oldest protocol version accepted: `VersionTLS12` (the default) or `VersionTLS13`, Go's names. */
  minVersion?: TlsVersionName;
  /**
   * The TLS 1.2 cipher suites offered, by IANA name (`TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256`),
   * as `--tls-cipher-suites` takes them; default Node.js's list. TLS 1.3's suites are not
   * configurable, as in Go.
   */
  cipherSuites?: string[];
}

/** The versions `--tls-min-version` accepts, with kube-apiserver's names. */
export const tlsVersions = { VersionTLS12: 'TLSv1.2', VersionTLS13: 'TLSv1.3' } as const satisfies Record<string, SecureVersion>;
export type TlsVersionName = keyof typeof tlsVersions;

/**
 * The TLS 1.2 suites Go's crypto/tls implements with forward secrecy and AEAD or CBC-SHA, by
 * IANA name, with OpenSSL's name (what Node's `ciphers` option takes). Static-RSA and 3DES
 * suites are left out: OpenSSL builds of Node.js refuse most of them at security level 2.
 */
export const cipherSuites: Readonly<Record<string, string>> = {
  TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256: 'ECDHE-ECDSA-AES128-GCM-SHA256',
  TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256: 'ECDHE-RSA-AES128-GCM-SHA256',
  TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384: 'ECDHE-ECDSA-AES256-GCM-SHA384',
  TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384: 'ECDHE-RSA-AES256-GCM-SHA384',
  TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256: 'ECDHE-ECDSA-CHACHA20-POLY1305',
  TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256: 'ECDHE-RSA-CHACHA20-POLY1305',
  TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA: 'ECDHE-ECDSA-AES128-SHA',
  TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA: 'ECDHE-RSA-AES128-SHA',
  TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA: 'ECDHE-ECDSA-AES256-SHA',
  TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA: 'ECDHE-RSA-AES256-SHA',
};

/**
 * Node's secure-context options for `settings`: TLS 1.2 at least unless 1.3 is asked for,
 * and the named suites only. What a renewed certificate's `setSecureContext` must repeat.
 * Throws a one-line error on an unknown version or suite.
 */
export function tlsContextOptions(settings: TlsSettings = {}): Pick<SecureContextOptions, 'minVersion' | 'ciphers'> {
  const name = settings.minVersion ?? 'VersionTLS12';
  const minVersion = (tlsVersions as Record<string, SecureVersion>)[name];
  if (!minVersion) throw new Error(`TLS minimum version must be one of ${Object.keys(tlsVersions).join(', ')}, not "${name}"`);
  if (!settings.cipherSuites?.length) return { minVersion };
  const ciphers = settings.cipherSuites.map((suite) => {
    const openssl = cipherSuites[suite];
    if (!openssl) throw new Error(`unknown or unsupported TLS cipher suite "${suite}" (supported: ${Object.keys(cipherSuites).join(', ')})`);
    return openssl;
  });
  return { minVersion, ciphers: ciphers.join(':') };
}

/**
 * Node's server options for `settings`: {@link tlsContextOptions}, and ALPN offering
 * `http/1.1` alone: no HTTP/2, which controller-runtime turned off after the HTTP/2 Rapid
 * Reset attacks (CVE-2023-44487).
 *
 * @example
 * https.createServer({ cert, key, ...serverTlsOptions({ minVersion: 'VersionTLS13' }) }, handler);
 */
export function serverTlsOptions(settings: TlsSettings = {}): Pick<TlsOptions, 'minVersion' | 'ciphers' | 'ALPNProtocols'> {
  return { ...tlsContextOptions(settings), ALPNProtocols: ['http/1.1'] };
}
