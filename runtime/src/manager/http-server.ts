import { createServer, type RequestListener, type Server } from 'node:http';
import type { Server as TlsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { BindAddress } from './bind-address.js';

/** A listening HTTP server. */
export interface HttpServer {
  /** `host:port` actually bound (the real port when 0 was asked for). */
  readonly address: string;
  readonly port: number;
  /**
   * Stops listening. Requests in flight may finish for up to `drainMs` (default 0): idle
   * keep-alive connections close at once, busy ones once their response is sent; at the
   * bound every connection left is dropped.
   */
  close(options?: { drainMs?: number }): Promise<void>;
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
    close: ({ drainMs = 0 } = {}) =>
      new Promise<void>((resolve) => {
        const dropAll = (): void => {
          server.closeAllConnections();
          for (const socket of sockets) socket.destroy();
        };
        // A connection whose response was just sent turns idle: close it then, not at the bound.
        const idle = setInterval(() => server.closeIdleConnections(), 50);
        const bound = setTimeout(dropAll, drainMs);
        server.close(() => {
          clearInterval(idle);
          clearTimeout(bound);
          resolve();
        });
        if (drainMs <= 0) dropAll();
        else server.closeIdleConnections();
      }),
  };
}
