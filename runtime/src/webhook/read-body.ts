import type { IncomingMessage } from 'node:http';

/** The body was larger than the limit: answer 413. */
export class BodyTooLarge extends Error {}

/** The body did not arrive in time: answer 408 and drop the connection. */
export class BodyTimeout extends Error {}

/** How {@link readBody} reads. */
export interface BodyLimits {
  /** The largest body accepted, in bytes. */
  maxBytes: number;
  /**
   * Past `maxBytes`, the rest is read and thrown away up to this many bytes in all, so the
   * client, still sending, reads the 413 instead of a connection reset; beyond it the
   * connection is closed at once.
   */
  discardBytes: number;
  /** How long the whole body may take, from the end of the headers. */
  timeoutMs: number;
}

/**
 * Reads a request body up to `maxBytes`. Rejects with {@link BodyTooLarge} beyond it, once
 * the rest has been discarded (up to `discardBytes`), and with {@link BodyTimeout} when it
 * takes longer than `timeoutMs`.
 */
export function readBody(request: IncomingMessage, limits: BodyLimits): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(request.headers['content-length'] ?? 0);
    if (declared > limits.discardBytes) {
      reject(new BodyTooLarge());
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = declared > limits.maxBytes;
    const timer = setTimeout(() => finish(new BodyTimeout()), limits.timeoutMs);
    const finish = (outcome: Buffer | Error): void => {
      clearTimeout(timer);
      request.removeAllListeners('data');
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limits.maxBytes) tooLarge = true;
      if (size > limits.discardBytes) finish(new BodyTooLarge());
      else if (!tooLarge) chunks.push(chunk);
    });
    request.on('end', () => finish(tooLarge ? new BodyTooLarge() : Buffer.concat(chunks)));
    request.on('error', (error) => finish(error));
  });
}
