import http, { STATUS_CODES, type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';
import { ApiError, type ApiStatus } from './errors.js';

export type Query = Record<string, string | number | boolean | undefined>;

/** One call to the API server. */
export interface HttpRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path below the cluster's server URL, e.g. `/api/v1/namespaces/a/pods`. */
  path: string;
  query?: Query;
  /** Sent as JSON. */
  body?: unknown;
  /** Default `application/json`; patches name their own. */
  contentType?: string;
  signal?: AbortSignal;
  /** Overrides the transport's timeout; `0` waits forever (the caller's signal still ends it). */
  timeoutMs?: number;
}

/** HTTP to the API server of a kubeconfig's current context, over kept-alive connections. */
export interface Transport {
  /** Resolves with the parsed JSON body (undefined when empty); throws {@link ApiError} on non-2xx. */
  request<T>(request: HttpRequest): Promise<T>;
  /** A streaming GET: resolves with the open response once the server answered 200. */
  stream(request: HttpRequest): Promise<IncomingMessage>;
}

export interface TransportOptions {
  /** Default timeout of a request, default 30 000 ms: a hung request must not hang a reconcile forever. */
  timeoutMs?: number;
}

const USER_AGENT = 'opgen-runtime';
const IDEMPOTENT = new Set(['GET', 'PUT', 'DELETE']);

/**
 * Builds the transport. Credentials are applied per request through client-node's
 * KubeConfig, so rotating tokens (in-cluster token files, exec plugins, OIDC) stay fresh;
 * connections come from one keep-alive agent, which Node pools per TLS identity, so a
 * rotated client certificate opens new connections by itself. client-node's own request
 * path builds a new agent per call, which means a TLS handshake per request.
 */
export function createTransport(kubeConfig: KubeConfig, options: TransportOptions = {}): Transport {
  const cluster = kubeConfig.getCurrentCluster();
  if (!cluster) throw new Error('kubeconfig has no current cluster: check its current-context');
  const server = new URL(cluster.server);
  const secure = server.protocol === 'https:';
  const prefix = server.pathname.replace(/\/$/, '');
  const hostname = server.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = server.port || (secure ? 443 : 80);
  const agent = secure ? new https.Agent({ keepAlive: true }) : new http.Agent({ keepAlive: true });
  const defaultTimeoutMs = options.timeoutMs ?? 30_000;
  const proxied = Boolean(cluster.proxyUrl);

  /** Sends `request`; resolves once the response headers are in. */
  async function send(request: HttpRequest): Promise<Sent> {
    const auth: https.RequestOptions = {};
    await kubeConfig.applyToHTTPSOptions(auth);
    const describe = `${request.method} ${request.path}`;
    const body = request.body === undefined ? undefined : Buffer.from(JSON.stringify(request.body));
    const headers: http.OutgoingHttpHeaders = {
      ...(auth.headers as http.OutgoingHttpHeaders | undefined),
      accept: 'application/json',
      'user-agent': USER_AGENT,
    };
    if (body) {
      headers['content-type'] = request.contentType ?? 'application/json';
      headers['content-length'] = body.length;
    }
    const timeoutMs = request.timeoutMs ?? defaultTimeoutMs;
    const timeout = timeoutMs > 0 ? AbortSignal.timeout(timeoutMs) : undefined;
    const signals = [request.signal, timeout].filter((s): s is AbortSignal => s !== undefined);
    const requestOptions: https.RequestOptions = {
      protocol: server.protocol,
      hostname,
      port,
      path: prefix + request.path + queryString(request.query),
      method: request.method,
      headers,
      // A proxy agent from client-node carries the proxy settings; keep it then.
      agent: proxied ? auth.agent : agent,
      ca: auth.ca,
      cert: auth.cert,
      key: auth.key,
      pfx: auth.pfx,
      passphrase: auth.passphrase,
      servername: auth.servername,
      auth: auth.auth,
      signal: signals.length > 1 ? AbortSignal.any(signals) : signals[0],
    };
    if (auth.rejectUnauthorized !== undefined) requestOptions.rejectUnauthorized = auth.rejectUnauthorized;
    const explain = (error: unknown) =>
      timeout?.aborted ? Object.assign(new Error(`${describe}: no answer from the API server within ${timeoutMs} ms`), { code: 'ETIMEDOUT' }) : error;

    const response = await new Promise<IncomingMessage>((resolve, reject) => {
      const attempt = (retry: boolean) => {
        const req = (secure ? https : http).request(requestOptions, resolve);
        req.on('error', (error: NodeJS.ErrnoException) => {
          // A kept-alive connection the server closed just as this request went out: Node's
          // documented case for one retry, taken only for idempotent methods.
          if (retry && req.reusedSocket && error.code === 'ECONNRESET' && IDEMPOTENT.has(request.method)) attempt(false);
          else reject(explain(error));
        });
        req.end(body);
      };
      attempt(true);
    });
    return {
      response,
      describe,
      async text() {
        const chunks: Buffer[] = [];
        try {
          for await (const chunk of response) chunks.push(chunk as Buffer);
        } catch (error) {
          throw explain(error);
        }
        return Buffer.concat(chunks).toString('utf8');
      },
    };
  }

  return {
    async request<T>(request: HttpRequest): Promise<T> {
      const sent = await send(request);
      const text = await sent.text();
      const code = sent.response.statusCode ?? 0;
      if (code < 200 || code > 299) throw apiError(code, text, sent.describe);
      return (text === '' ? undefined : JSON.parse(text)) as T;
    },

    async stream(request: HttpRequest): Promise<IncomingMessage> {
      const sent = await send(request);
      const code = sent.response.statusCode ?? 0;
      if (code === 200) return sent.response;
      throw apiError(code, await sent.text(), sent.describe);
    },
  };
}

interface Sent {
  response: IncomingMessage;
  /** `METHOD path`, for messages. */
  describe: string;
  /** Reads the whole body. */
  text(): Promise<string>;
}

function queryString(query: Query | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) params.set(key, String(value));
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

function apiError(code: number, text: string, describe: string): ApiError {
  let status: ApiStatus | undefined;
  try {
    const parsed = JSON.parse(text) as ApiStatus;
    if (parsed && parsed.kind === 'Status') status = parsed;
  } catch {
    // Not JSON (a proxy's HTML page, a plain-text 503): the fallback message carries it.
  }
  const hint = code === 404 && !status ? ' (the API server does not serve this resource: is its CRD installed?)' : '';
  const fallback = `${describe}: ${code} ${STATUS_CODES[code] ?? ''}${text ? `: ${text.trim().slice(0, 200)}` : ''}${hint}`;
  return new ApiError(code, status, describe, fallback);
}
