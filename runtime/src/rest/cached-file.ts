import { readFileSync } from 'node:fs';

/** A file read at most once every `periodMs`; see {@link cachedFile}. */
export interface CachedFile {
  /** The content, read afresh when the last read is `periodMs` old; a failed re-read keeps the last content. */
  read(): Buffer;
  /** The next `read` reads the file again (the server refused what it held). */
  invalidate(): void;
}

/**
 * A credential file that something else rotates (the kubelet's service account token, a
 * cert-manager client certificate): re-read every `periodMs` as client-go re-reads token
 * files (every minute) and client certificates (every five). `now` is the clock in ms.
 *
 * @example
 * const token = cachedFile('/var/run/secrets/kubernetes.io/serviceaccount/token', 60_000);
 * headers.authorization = `Bearer ${token.read().toString().trim()}`;
 */
export function cachedFile(path: string, periodMs: number, now: () => number = () => performance.now()): CachedFile {
  let content: Buffer | undefined;
  let readAt = -Infinity;
  return {
    read() {
      if (content !== undefined && now() - readAt < periodMs) return content;
      try {
        content = readFileSync(path);
      } catch (error) {
        // client-go keeps the last good token when a re-read fails (a rotation in progress).
        if (content === undefined) throw new Error(`kubeconfig: cannot read ${path}: ${(error as Error).message}`);
      }
      readAt = now();
      return content;
    },
    invalidate() {
      readAt = -Infinity;
    },
  };
}
