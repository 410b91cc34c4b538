import { createPrivateKey, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';
import {
  bitString,
  boolean,
  explicit,
  implicitPrimitive,
  objectIdentifier,
  octetString,
  sequence,
  set,
  time,
  tlv,
  unsignedInteger,
  utf8String,
} from './der.js';

/** A certificate and its private key, both PEM. */
export interface CertificateKeyPair {
  certPem: string;
  keyPem: string;
}

/** Options of {@link selfSignedCertificate}. */
export interface SelfSignedOptions {
  /** Subject common name; default the first DNS name. */
  commonName?: string;
  /** DNS names and IP addresses the certificate is valid for; default localhost, 127.0.0.1 and ::1. */
  hosts?: string[];
  /** Default one year from now. */
  validDays?: number;
  /** Lifetime in milliseconds, for lifetimes shorter than a day; wins over `validDays`. */
  validMs?: number;
  /** Default now. */
  now?: Date;
}

const OID = {
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
  commonName: '2.5.4.3',
  basicConstraints: '2.5.29.19',
  keyUsage: '2.5.29.15',
  extKeyUsage: '2.5.29.37',
  subjectAltName: '2.5.29.17',
  serverAuth: '1.3.6.1.5.5.7.3.1',
} as const;

// Validity starts a little in the past so clients whose clocks run behind still accept it.
export const CLOCK_SKEW_MS = 60 * 60 * 1000;

/**
 * A self-signed TLS server certificate with a fresh ECDSA P-256 key, like the one
 * controller-runtime's metrics server makes when it is given none: it encrypts the
 * traffic; clients either skip verification or trust this very certificate.
 *
 * No keyUsage extension on purpose: OpenSSL treats a self-issued certificate as
 * self-signed (usable as its own trust anchor) only when keyUsage is absent or
 * includes keyCertSign.
 */
export function selfSignedCertificate(options: SelfSignedOptions = {}): CertificateKeyPair {
  return issueCertificate(options);
}

/** Options of {@link issueCertificate}. */
export interface IssueOptions extends SelfSignedOptions {
  /** A certificate authority (keyCertSign, no serverAuth) instead of a server certificate. */
  ca?: boolean;
  /** The CA that signs it, made by this function with `ca: true`; default self-signed. */
  issuer?: { commonName: string; keyPem: string };
}

/**
 * An X.509 certificate with a fresh ECDSA P-256 key: self-signed (see
 * {@link selfSignedCertificate}), a CA (`ca`), or a server certificate signed by one
 * (`issuer`), as a webhook's built-in certificates need.
 */
export function issueCertificate(options: IssueOptions = {}): CertificateKeyPair {
  const hosts = options.hosts ?? (options.ca ? [] : ['localhost', '127.0.0.1', '::1']);
  const dnsNames = hosts.filter((h) => !isIPv4(h) && !isIPv6(h));
  const commonName = options.commonName ?? dnsNames[0] ?? hosts[0] ?? 'localhost';
  const now = options.now ?? new Date();
  const notAfter = new Date(now.getTime() + (options.validMs ?? (options.validDays ?? 365) * 24 * 60 * 60 * 1000));
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const signingKey = options.issuer ? createPrivateKey(options.issuer.keyPem) : privateKey;

  const algorithm = sequence(objectIdentifier(OID.ecdsaWithSha256));
  const nameOf = (cn: string) => sequence(set(sequence(objectIdentifier(OID.commonName), utf8String(cn))));
  const extension = (oid: string, critical: boolean, value: Buffer): Buffer =>
    sequence(objectIdentifier(oid), ...(critical ? [boolean(true)] : []), octetString(value));
  const altNames = hosts.map((host) =>
    isIPv4(host) || isIPv6(host) ? implicitPrimitive(7, ipBytes(host)) : implicitPrimitive(2, Buffer.from(host, 'ascii')),
  );
  // 16 random bytes with the top bit cleared: a positive serial of at most 20 octets (RFC 5280).
  const serial = randomBytes(16);
  serial[0] = (serial[0] ?? 0) & 0x7f;
  // keyUsage bits as DER BIT STRINGs: keyCertSign+cRLSign (bits 5, 6), digitalSignature (bit 0).
  const extensions = options.ca
    ? [
        extension(OID.basicConstraints, true, sequence(boolean(true))),
        extension(OID.keyUsage, true, tlv(0x03, Buffer.from([1]), Buffer.from([0x06]))),
      ]
    : [
        extension(OID.basicConstraints, true, sequence()),
        ...(options.issuer ? [extension(OID.keyUsage, true, tlv(0x03, Buffer.from([7]), Buffer.from([0x80])))] : []),
        extension(OID.extKeyUsage, false, sequence(objectIdentifier(OID.serverAuth))),
        extension(OID.subjectAltName, false, sequence(...altNames)),
      ];

  const tbs = sequence(
    explicit(0, unsignedInteger(Buffer.from([2]))),
    unsignedInteger(serial),
    algorithm,
    nameOf(options.issuer?.commonName ?? commonName),
    sequence(time(new Date(now.getTime() - CLOCK_SKEW_MS)), time(notAfter)),
    nameOf(commonName),
    publicKey.export({ type: 'spki', format: 'der' }),
    explicit(3, sequence(...extensions)),
  );
  // node:crypto signs ECDSA in the DER (r, s) form X.509 expects.
  const signature = sign('sha256', tbs, signingKey);
  const certificate = sequence(tbs, algorithm, bitString(signature));
  return {
    certPem: pem('CERTIFICATE', certificate),
    keyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
  };
}

function ipBytes(address: string): Buffer {
  if (isIPv4(address)) return Buffer.from(address.split('.').map(Number));
  // An IPv4 tail (`::ffff:10.0.0.1`) is the last two groups written in dotted form.
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    address = `${address.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail = ''] = address.split('::');
  const groups = (part: string) => (part === '' ? [] : part.split(':'));
  const left = groups(head);
  const right = address.includes('::') ? groups(tail) : [];
  const all = [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return Buffer.concat(all.map((g) => Buffer.from(g.padStart(4, '0'), 'hex')));
}

function pem(label: string, der: Buffer): string {
  const lines = der.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}
