import { createServer, type RequestListener, type Server } from 'node:http';
import type { Server as TlsServer } from 'node:https';
import { Server as NetServer, type AddressInfo, type Socket } from 'node:net';
import type { BindAddress } from './bind-address.js';

const netServerClose = NetServer.prototype.close;

/** A listening HTTP server. */
export interface HttpServer {
  /** `host:port` actually bound (the real port when 0 was asked for). */
  readonly address: string;
  readonly port: number;
  /**
   * Stops listening. Requests in flight may finish for up to `drainMs` (default 0): busy
   * connections close once their response is sent, idle keep-alive ones after `idleGraceMs`
   * (default at once); at the bound every connection left is dropped.
   */
  close(options?: { drainMs?: number; idleGraceMs?: number }): Promise<void>;
}

/**
 * Serves `handler` on `bind`; rejects when the address cannot be bound. `create` makes
 * the server: plain HTTP by default, `https.createServer` with options for TLS.
 */
export async function listen(
  bind: BindAddress,
  handler: RequestListener,
  create: (handler: RequestListener) => Server | TlsServer = createServer,
): Promise<HttpServer> {
  const server = create(handler);
  // Every socket, raw TCP included: a TLS handshake in progress is no HTTP connection yet,
  // and only this set lets the bound of a drain reach it.
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    const fail = (error: Error): void => {
      const where = bind.host?.includes(':') ? `[${bind.host}]:${bind.port}` : `${bind.host ?? ''}:${bind.port}`;
      reject(new Error(`cannot listen on ${where}: ${error.message}`, { cause: error }));
    };
    server.once('error', fail);
    server.listen({ host: bind.host, port: bind.port }, () => {
      server.off('error', fail);
      resolve();
    });
  });
  const info = server.address() as AddressInfo;
  const host = info.family === 'IPv6' ? `[${info.address}]` : info.address;
  return {
    address: `${host}:${info.port}`,
    port: info.port,
    close: ({ drainMs = 0, idleGraceMs = 0 } = {}) =>
      new Promise<void>((resolve) => {
        const dropAll = (): void => {
          server.closeAllConnections();
          for (const socket of sockets) socket.destroy();
        };
        let idle: NodeJS.Timeout | undefined;
        // A connection whose response was just sent turns idle: close it then, not at the bound.
        const closeIdle = (): void => {
          server.closeIdleConnections();
          idle ??= setInterval(() => server.closeIdleConnections(), 50);
        };
        const grace = idleGraceMs > 0 ? setTimeout(closeIdle, Math.min(idleGraceMs, drainMs)) : undefined;
        const bound = setTimeout(dropAll, drainMs);
        const done = (): void => {
          clearInterval(idle);
          clearTimeout(grace);
          clearTimeout(bound);
          resolve();
        };
        if (grace) {
          // Only stop listening: http's close() also closes idle keep-alive connections at
          // once, racing a client that is sending its next request on one (it gets EOF).
          // Within the grace such a request is answered, with `Connection: close`.
          netServerClose.call(server, done);
        } else {
          server.close(done);
          closeIdle();
        }
        if (drainMs <= 0) dropAll();
      }),
  };
}
