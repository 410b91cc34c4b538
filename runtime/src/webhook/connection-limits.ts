import type { Server } from 'node:https';
import type { Socket } from 'node:net';
import type { Logger } from '../log/index.js';

/** How long a client may hold a connection before it has sent a request, and how many it may hold. */
export interface ConnectionLimits {
  /** The TLS handshake, from the TCP connection on. */
  handshakeTimeoutMs: number;
  /** The request's headers, from the connection (or the previous response) on. */
  headerTimeoutMs: number;
  /** The body, from the end of the headers on. */
  bodyTimeoutMs: number;
  /** Connections open at once; more are closed as they come. */
  maxConnections: number;
  /** Connections idle between requests. */
  idleTimeoutMs: number;
}

/**
 * controller-runtime's webhook server: 32 s to send the headers (Go's net/http bounds the
 * TLS handshake by the same deadline), 90 s idle. Go has no body deadline; 32 s is ample
 * for 7 MiB and stops a client that trickles one. Go has no connection cap either; 1024
 * is far above what API servers open and far below what exhausts a process.
 */
export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  handshakeTimeoutMs: 32_000,
  headerTimeoutMs: 32_000,
  bodyTimeoutMs: 32_000,
  maxConnections: 1024,
  idleTimeoutMs: 90_000,
};

/** How often a warning about refused connections may be logged. */
const DROP_WARNING_INTERVAL_MS = 30_000;

/**
 * Node's options for the header timeout. Node checks it only every
 * `connectionsCheckingInterval` (30 s by default, so a 32 s timeout fired at up to 62 s):
 * a check every eighth of the timeout, at most every half second, fires it within that.
 */
export function headerTimeoutOptions(limits: ConnectionLimits): { headersTimeout: number; requestTimeout: number; connectionsCheckingInterval: number; keepAliveTimeout: number } {
  return {
    headersTimeout: limits.headerTimeoutMs,
    // Node's bound on the whole request: a backstop behind the body timeout of readBody.
    requestTimeout: limits.headerTimeoutMs + limits.bodyTimeoutMs + 1_000,
    connectionsCheckingInterval: Math.max(100, Math.min(500, Math.floor(limits.headerTimeoutMs / 8))),
    keepAliveTimeout: limits.idleTimeoutMs,
  };
}

/**
 * Bounds the TLS handshake and the number of connections of `server`. Node's own
 * `handshakeTimeout` is an inactivity timeout, which a client sending a byte now and then
 * extends for ever; this one counts from the TCP connection.
 */
export function limitConnections(server: Server, limits: ConnectionLimits, log: Logger): void {
  server.maxConnections = limits.maxConnections;
  const handshaking = new Map<string, NodeJS.Timeout>();
  const key = (socket: Socket): string => `${socket.remoteAddress}:${socket.remotePort}`;
  server.on('connection', (socket: Socket) => {
    const id = key(socket);
    const timer = setTimeout(() => socket.destroy(), limits.handshakeTimeoutMs);
    timer.unref();
    handshaking.set(id, timer);
    socket.once('close', () => {
      clearTimeout(timer);
      handshaking.delete(id);
    });
  });
  server.on('secureConnection', (socket: Socket) => {
    const id = key(socket);
    clearTimeout(handshaking.get(id));
    handshaking.delete(id);
  });
  let dropped = 0;
  let warnedAt = -Infinity;
  server.on('drop', () => {
    dropped += 1;
    const now = performance.now();
    if (now - warnedAt < DROP_WARNING_INTERVAL_MS) return;
    warnedAt = now;
    log.warn({ maxConnections: limits.maxConnections, refused: dropped }, 'The webhook server refuses connections: it holds as many as it may');
    dropped = 0;
  });
}
