/**
 * The memory API server behind real HTTP: one request handler that turns an incoming
 * request into the `HttpRequest` `server.handle` takes (method, path, query, body parsed by
 * its content type, Accept) and writes the answer back as kube-apiserver would (status
 * code, JSON body, `Warning` headers, a watch as chunked JSON lines), and the OpenAPI v3
 * documents kubectl asks for (`openapi.ts`). Requests without the
 * bearer token get 401, as the API server answers an anonymous request it does not allow.
 */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseYaml } from 'yaml';
import type { HttpRequest } from '../../rest/transport.js';
import { openApiDocument } from './openapi.js';
import type { MemoryServer } from './server/server.js';

/** A `Status` answer of the handler itself (not of the memory server). */
function status(code: number, reason: string, message: string): unknown {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code };
}

/** Options of {@link memoryRequestHandler}. */
export interface MemoryHandlerOptions {
  /** The bearer token every request must carry. */
  token: string;
  /** Runs before each request is handled (the served cluster moves its clock to the wall time). */
  beforeRequest?: () => void;
}

/**
 * A `node:http` request listener answering with `server`.
 *
 * @example
 * const handler = memoryRequestHandler(memory.server, { token });
 * https.createServer({ cert, key }, handler).listen(0, '127.0.0.1');
 */
export function memoryRequestHandler(server: MemoryServer, options: MemoryHandlerOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const expected = Buffer.from(`Bearer ${options.token}`);
  const authorized = (header: string | undefined) => {
    const given = Buffer.from(header ?? '');
    return given.length === expected.length && timingSafeEqual(given, expected);
  };
  return (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (!authorized(req.headers.authorization)) return sendJson(res, 401, status(401, 'Unauthorized', 'Unauthorized'));
      let request: HttpRequest;
      try {
        request = toHttpRequest(req, Buffer.concat(chunks).toString('utf8'));
      } catch (error) {
        return sendJson(res, 400, status(400, 'BadRequest', error instanceof Error ? error.message : String(error)));
      }
      options.beforeRequest?.();
      if (request.method === 'GET' && request.path.startsWith('/openapi/v3')) {
        const document = openApiDocument(server.state.registry, request.path);
        return document === undefined ? sendJson(res, 404, status(404, 'NotFound', 'the server could not find the requested resource')) : sendJson(res, 200, document);
      }
      answer(server, request, res);
    });
  };
}

/** The request as the memory server reads it; throws on a body its content type cannot parse. */
export function toHttpRequest(req: Pick<IncomingMessage, 'method' | 'url' | 'headers'>, text: string): HttpRequest {
  const url = new URL(req.url ?? '/', 'http://memory');
  const method = (req.method ?? 'GET').toUpperCase();
  const query: Record<string, string> = {};
  for (const [key, value] of url.searchParams) query[key] = value;
  const contentType = req.headers['content-type'];
  return {
    // Another method (HEAD, OPTIONS) reaches the memory server as it is, which answers 405.
    method: method as HttpRequest['method'],
    path: url.pathname,
    query,
    body: text === '' ? undefined : parseBody(text, contentType),
    ...(contentType ? { contentType } : {}),
    ...(req.headers.accept ? { accept: req.headers.accept } : {}),
  };
}

/** JSON for every content type but server-side apply's YAML (of which JSON is a part). */
function parseBody(text: string, contentType: string | undefined): unknown {
  const type = (contentType ?? 'application/json').split(';')[0]!.trim();
  if (type === 'application/apply-patch+yaml' || type === 'application/yaml') return parseYaml(text);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`the body of the request is not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function answer(server: MemoryServer, request: HttpRequest, res: ServerResponse): void {
  const response = server.handle(request);
  if ('stream' in response) {
    // A watch: kept open, one JSON event per line, flushed as it comes (chunked encoding).
    res.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked', 'cache-control': 'no-cache' });
    res.flushHeaders();
    const { stream } = response;
    stream.on('data', (chunk: Buffer | string) => res.write(chunk));
    stream.on('end', () => res.end());
    stream.on('close', () => res.end());
    res.on('close', () => stream.destroy());
    return;
  }
  if ('text' in response) {
    res.writeHead(response.code, { 'content-type': 'text/plain; charset=utf-8' });
    res.end(response.text);
    return;
  }
  const headers: Record<string, string | string[]> = {};
  // The API server's form of a warning: code 299, agent "-", the text quoted.
  if (response.warnings?.length) headers.warning = response.warnings.map((w) => `299 - ${JSON.stringify(w)}`);
  sendJson(res, response.code, response.body, headers);
}

function sendJson(res: ServerResponse, code: number, body: unknown, headers: Record<string, string | string[]> = {}): void {
  const text = body === undefined ? '' : JSON.stringify(body);
  res.writeHead(code, { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
