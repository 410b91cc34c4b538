import { createServer } from 'node:net';

/** The only interface the control plane listens on. */
export const LOOPBACK = '127.0.0.1';

/** A loopback port that was free a moment ago (the kernel's pick). */
export function freePort(): Promise<number> {
  return listenOnce(0);
}

/** Throws a clear error when `port` cannot be bound on loopback. */
export async function ensurePortFree(port: number, purpose: string): Promise<void> {
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new Error(`${purpose} port ${port} is not a port number (1-65535)`);
  }
  try {
    await listenOnce(port);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new Error(`${purpose} port ${LOOPBACK}:${port} is already in use`);
    throw error;
  }
}

function listenOnce(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen({ port, host: LOOPBACK, exclusive: true }, () => {
      const address = server.address();
      server.close(() => (address && typeof address === 'object' ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}
