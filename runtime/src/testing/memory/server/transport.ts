/**
 * The memory API server as a {@link Transport}: the runtime's client, cache and leader
 * election talk to it exactly as to a real API server, without sockets. Bodies cross as
 * JSON text both ways, so no object is shared between the caller and the storage.
 */
import type { Readable } from 'node:stream';
import { apiError, type HttpRequest, type Transport } from '../../../rest/transport.js';
import type { MemoryServer } from './server.js';

const roundTrip = (value: unknown): unknown => (value === undefined ? undefined : JSON.parse(JSON.stringify(value)));

export function memoryTransport(server: MemoryServer): Transport {
  /** Runs one request as the real transport's single try would: precondition, then the answer or an ApiError. */
  async function send(request: HttpRequest) {
    request.signal?.throwIfAborted();
    request.precondition?.();
    // A request is answered after the caller's synchronous code, as over a socket.
    await Promise.resolve();
    request.signal?.throwIfAborted();
    const response = server.handle({ ...request, body: roundTrip(request.body) });
    const describe = `${request.method} ${request.path}`;
    if (response.code < 200 || response.code > 299) {
      // The real transport's reading of an error answer, so both tiers throw the same error.
      const text = 'text' in response ? response.text : JSON.stringify('body' in response ? response.body : '');
      throw apiError(response.code, text, describe, undefined);
    }
    if ('text' in response) throw new Error(`${describe}: the memory server answered ${response.code} with text`);
    return response;
  }

  return {
    async request<T>(request: HttpRequest): Promise<T> {
      const response = await send(request);
      if ('stream' in response) {
        response.stream.destroy();
        throw new Error(`${request.method} ${request.path}: a watch was asked for through request(); use stream()`);
      }
      return roundTrip(response.body) as T;
    },
    async stream(request: HttpRequest): Promise<Readable> {
      const response = await send(request);
      if (!('stream' in response)) throw new Error(`${request.method} ${request.path}: not a watch (no watch=true in the query)`);
      request.signal?.addEventListener('abort', () => response.stream.destroy(), { once: true });
      return response.stream;
    },
    // The memory server is never unreachable.
    recovered: () => Promise.resolve(),
  };
}
