import { createServer, type RequestListener, type Server } from 'node:http';
import type { Server as TlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { BindAddress } from './bind-address.js';

/** A listening HTTP server. */
export interface HttpServer {
  /** `host:port` actually bound (the real port when 0 was asked for). */
  readonly address: string;
  readonly port: number;
  /** Stops listening and drops open connections. */
  close(): Promise<void>;
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
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
