import { readFileSync, unwatchFile, watchFile } from 'node:fs';
import { join } from 'node:path';
import { createSecureContext } from 'node:tls';
import type { Logger } from '../log/index.js';
import { selfSignedCertificate, type CertificateKeyPair } from './self-signed-cert.js';

/** Where a server's certificate and key are, as kubebuilder's `--metrics-cert-*` flags name them. */
export interface CertificateFiles {
  /** The directory, e.g. a mounted cert-manager Secret. */
  dir: string;
  /** Default `tls.crt`. */
  certName?: string;
  /** Default `tls.key`. */
  keyName?: string;
}

/** A server's certificate, current as of the last change on disk. */
export interface ServingCertificate {
  readonly current: CertificateKeyPair;
  /** `null` for a self-signed certificate; otherwise where it is read from. */
  readonly files: { cert: string; key: string } | null;
  /**
   * Calls `onChange` with each new valid pair once the files change (cert-manager
   * renewing the Secret), and returns the function that stops watching.
   */
  watch(onChange: (pair: CertificateKeyPair) => void): () => void;
}

// How often the files are checked. Polling, not inotify: a Secret volume swaps a symlinked
// directory, which inotify on the files does not report but a stat of the path does.
const POLL_INTERVAL_MS = 2_000;

/**
 * The certificate in `files`, or a fresh self-signed one when `files` is undefined.
 * Throws a one-line error naming `server` when the files cannot be read or do not form a key pair.
 */
export function servingCertificate(files: CertificateFiles | undefined, log: Logger, server = 'metrics server'): ServingCertificate {
  if (!files) {
    return { current: selfSignedCertificate(), files: null, watch: () => () => {} };
  }
  const paths = { cert: join(files.dir, files.certName ?? 'tls.crt'), key: join(files.dir, files.keyName ?? 'tls.key') };
  let current = readPair(paths, server);
  return {
    get current() {
      return current;
    },
    files: paths,
    watch(onChange) {
      const reload = () => {
        let next: CertificateKeyPair;
        try {
          next = readPair(paths, server);
        } catch (error) {
          // Mid-rotation the certificate may be new and the key still old: wait for the next change.
          log.error({ err: error }, `Not reloading the ${server} certificate`);
          return;
        }
        if (next.certPem === current.certPem && next.keyPem === current.keyPem) return;
        current = next;
        log.info({ cert: paths.cert }, `Reloaded the ${server} certificate`);
        onChange(next);
      };
      watchFile(paths.cert, { interval: POLL_INTERVAL_MS, persistent: false }, reload);
      watchFile(paths.key, { interval: POLL_INTERVAL_MS, persistent: false }, reload);
      return () => {
        unwatchFile(paths.cert, reload);
        unwatchFile(paths.key, reload);
      };
    },
  };
}

function readPair(paths: { cert: string; key: string }, server: string): CertificateKeyPair {
  const read = (path: string, what: string) => {
    try {
      return readFileSync(path, 'utf8');
    } catch (error) {
      throw new Error(`cannot read the ${server} ${what} ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
  };
  const pair = { certPem: read(paths.cert, 'certificate'), keyPem: read(paths.key, 'key') };
  try {
    createSecureContext({ cert: pair.certPem, key: pair.keyPem });
  } catch (error) {
    throw new Error(`the ${server} certificate ${paths.cert} and key ${paths.key} are not a usable pair: ${(error as Error).message}`);
  }
  return pair;
}
