import http, { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import https from 'node:https';
import { credentialsFor } from './credentials.js';
import { ApiError, type ApiStatus } from './errors.js';
import { currentContextOf, type KubeConfig } from './kubeconfig.js';
import { notSent, parseRetryAfter, retryDelayMs, type TryOutcome } from './retry-policy.js';
import { createRecoveryWatch } from './recovery.js';
import { sleep } from './sleep.js';
import type { LoggerLike } from './logger.js';
import type { TokenBucket } from './token-bucket.js';
import { currentTraceparent } from './trace-context.js';

/** A request's query parameters; undefined ones are left out. */
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
  /** Cancels the call, its retries included. */
  signal?: AbortSignal;
  /** Overrides the transport's deadline of the whole call; `0` waits forever (the signal still ends it). */
  timeoutMs?: number;
  /** Runs synchronously right before each try is sent; throwing cancels the call. */
  precondition?: () => void;
  /** Default `application/json`; metadata-only reads ask for `PartialObjectMetadata`. */
  accept?: string;
  /**
   * The caller backs off on failure itself (an informer's list): a server that cannot be
   * reached is then not retried inside the call, so no retry loop inside it outlives the
   * caller's backoff, which the end of an outage ends (see `recovered`). A server that
   * answers (5xx, 429) is retried as in any call.
   */
  ownBackoff?: boolean;
  /**
   * `stream` only: take a token of the rate limiter first, as a list does. A streaming list
   * (a watch with `sendInitialEvents`) is the list; a plain watch takes none.
   */
  takesToken?: boolean;
}

/** Receives every response and retry, for `rest_client_*` metrics. */
export interface TransportObserver {
  /** A try ended with HTTP status `code`, or `<error>` when no response came. */
  response(method: string, code: string): void;
  /** A try that ended with `code` is being retried. */
  retry(method: string, code: string): void;
  /**
   * A try waited `seconds` in the client-side rate limiter (only when one is set), as
   * client-go observes it; `path` tells a list from the `/readyz` probe of an outage.
   */
  rateLimited?(method: string, seconds: number, path: string): void;
}

/** HTTP to the API server of a kubeconfig's current context, over kept-alive connections. */
export interface Transport {
  /**
   * Resolves with the parsed JSON body (undefined when empty); throws {@link ApiError} on
   * non-2xx once retrying is over (see `retryDelayMs` for what is retried).
   */
  request<T>(request: HttpRequest): Promise<T>;
  /**
   * A streaming GET (a watch), tried once: resolves with the open response once the server
   * answered 200. Not rate-limited (client-go takes no token to start a watch) unless
   * `takesToken` says it is a list. An informer's list is a watch with
   * `sendInitialEvents=true&resourceVersionMatch=NotOlderThan` and no `resourceVersion`: a
   * transport serving it sends every object as `ADDED`, then a `BOOKMARK` whose metadata has
   * the annotation `k8s.io/initial-events-end: "true"`, then the changes; one that does not
   * serve it must refuse it (400 or 422, as kube-apiserver with `WatchList` off), and the
   * informer lists in pages instead. Ignoring the parameter stalls the informer until the
   * watch's `timeoutSeconds`. The watch reads the answer as a `Readable`
   * (data/end/error/close, `setEncoding`, `destroy`) only, so an in-process server (the
   * memory cluster) can answer with a stream of its own.
   */
  stream(request: HttpRequest): Promise<Readable>;
  /** Resolves once the API server answers again after failures (its `/readyz` is the probe), or when `signal` aborts. */
  recovered(signal: AbortSignal): Promise<void>;
}

/** The transport to a real API server over HTTP: its watch response is the HTTP response itself (headers included). */
export interface HttpTransport extends Transport {
  stream(request: HttpRequest): Promise<IncomingMessage>;
}

/** Options of {@link createTransport}. */
export interface TransportOptions {
  /** Deadline of a call, all its tries included; default 60 000 ms. A hung call must not pin a worker. */
  timeoutMs?: number;
  /**
   * How long one try waits for the response headers before the connection is presumed
   * dead (a half-open socket answers nothing, ever) and the try fails; default 20 000 ms,
   * above the 15 s a request may queue in API Priority and Fairness.
   */
  responseTimeoutMs?: number;
  /**
   * Client-side rate limit: every try of every `request` (retries included) takes a token
   * first. Off by default (the API server's APF limits); one bucket may be shared by many
   * transports, as a manager shares its own between client, cache and leader election.
   */
  rateLimiter?: TokenBucket;
  observer?: TransportObserver;
  /**
   * Hears of retries of failed requests (5xx, broken connections): each at debug, and at
   * most every 30 s a warning with how many there were, so a process stuck retrying says so.
   */
  logger?: LoggerLike;
}

const USER_AGENT = 'opgen-runtime';
/** At most one warning about retried failures per transport in this long; the rest go to debug. */
const RETRY_WARNING_INTERVAL_MS = 30_000;
/**
 * A pooled connection idle this long is closed rather than reused. A NAT or load balancer
 * may drop an idle flow silently; a request sent on it would hang until its response
 * timeout. New connections cost a TLS handshake only to processes idle that long.
 */
const FREE_SOCKET_TIMEOUT_MS = 15_000;

/**
 * Builds the transport. Credentials are applied per request (see `credentialsFor`), so
 * rotating token files and exec plugins' credentials stay fresh; connections come from one
 * keep-alive agent, which Node pools per TLS identity, so a rotated client certificate
 * opens new connections by itself.
 */
export function createTransport(kubeConfig: KubeConfig, options: TransportOptions = {}): HttpTransport {
  const { cluster } = currentContextOf(kubeConfig);
  const credentials = credentialsFor(kubeConfig);
  const server = new URL(cluster.server);
  const secure = server.protocol === 'https:';
  const prefix = server.pathname.replace(/\/$/, '');
  const hostname = server.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = server.port || (secure ? 443 : 80);
  const agentOptions = { keepAlive: true, timeout: FREE_SOCKET_TIMEOUT_MS };
  const agent = secure ? new https.Agent(agentOptions) : new http.Agent(agentOptions);
  const defaultTimeoutMs = options.timeoutMs ?? 60_000;
  const responseTimeoutMs = options.responseTimeoutMs ?? 20_000;
  const bucket = options.rateLimiter;
  const observer = options.observer;

  /** Closes the idle pooled connections: when one proved dead, those idle beside it likely are too. */
  function dropIdleSockets(): void {
    for (const sockets of Object.values(agent.freeSockets)) for (const socket of sockets ?? []) socket.destroy();
  }

  /** Sends one try of `request`; resolves once the response headers are in. */
  async function send(request: HttpRequest, signal: AbortSignal | undefined): Promise<IncomingMessage> {
    const auth = await credentials.apply();
    const body = request.body === undefined ? undefined : Buffer.from(JSON.stringify(request.body));
    const headers: http.OutgoingHttpHeaders = {
      ...auth.headers,
      accept: request.accept ?? 'application/json',
      'user-agent': USER_AGENT,
    };
    const traceparent = currentTraceparent();
    if (traceparent) headers.traceparent = traceparent;
    if (body) {
      headers['content-type'] = request.contentType ?? 'application/json';
      headers['content-length'] = body.length;
    }
    const requestOptions: https.RequestOptions = {
      protocol: server.protocol,
      hostname,
      port,
      path: prefix + request.path + queryString(request.query),
      method: request.method,
      headers,
      // A proxy agent from client-node carries the proxy settings; keep it then.
      agent: auth.agent ?? agent,
      ca: auth.ca,
      cert: auth.cert,
      key: auth.key,
      servername: auth.servername,
      rejectUnauthorized: auth.rejectUnauthorized,
      signal,
    };
    request.precondition?.();
    signal?.throwIfAborted();
    return new Promise<IncomingMessage>((resolve, reject) => {
      const req = (secure ? https : http).request(requestOptions, (response) => {
        clearTimeout(timer);
        resolve(response);
      });
      const timer = setTimeout(() => {
        const error: NodeJS.ErrnoException = new Error(
          `${request.method} ${request.path}: no response within ${responseTimeoutMs} ms (the connection is presumed dead)`,
        );
        error.code = 'ERESPONSETIMEOUT';
        req.destroy(error);
        dropIdleSockets();
      }, responseTimeoutMs);
      req.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      req.end(body);
    });
  }

  const logger = options.logger;
  let retriesUnwarned = 0;
  let warnedAt = -Infinity;
  /** A server failure or broken connection being retried: debug each, warn at most every 30 s. */
  const reportRetry = (describe: string, outcome: TryOutcome, tries: number, delayMs: number, error: unknown): void => {
    if (!logger || ('status' in outcome && outcome.status < 500)) return;
    const message = (error as Error).message.slice(0, 300);
    const failure = 'status' in outcome ? { status: outcome.status, message } : { error: outcome.error.code ?? message };
    logger.debug({ request: describe, ...failure, attempt: tries, retryInMs: Math.round(delayMs) }, 'Retrying a request the API server failed');
    retriesUnwarned += 1;
    if (performance.now() - warnedAt < RETRY_WARNING_INTERVAL_MS) return;
    logger.warn({ request: describe, ...failure, attempt: tries, retries: retriesUnwarned }, 'The API server is failing requests; retrying');
    warnedAt = performance.now();
    retriesUnwarned = 0;
  };

  /**
   * Runs `request` to a final answer: tries again on what client-go retries (see
   * `retryDelayMs`), honouring `Retry-After`, until `MAX_TRIES`, the deadline or the
   * caller's signal ends it. `read` turns a 2xx response into the result. Each try first
   * waits for a token of the rate limiter, and the wait is observed (client-go's
   * `tryThrottle`). A `watch` is tried once and takes no token: client-go's `Watch` skips
   * the limiter on its first try, and a watch here has no other.
   */
  async function call<R>(request: HttpRequest, read: (response: IncomingMessage, describe: string) => Promise<R>, watch: boolean): Promise<R> {
    const describe = `${request.method} ${request.path}`;
    const timeoutMs = request.timeoutMs ?? defaultTimeoutMs;
    const deadline = timeoutMs > 0 ? AbortSignal.timeout(timeoutMs) : undefined;
    const signals = [request.signal, deadline].filter((s): s is AbortSignal => s !== undefined);
    const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
    const endsAt = timeoutMs > 0 ? performance.now() + timeoutMs : Infinity;
    const explain = (error: unknown): unknown => {
      if (deadline?.aborted) return Object.assign(new Error(`${describe}: no answer from the API server within ${timeoutMs} ms`), { code: 'ETIMEDOUT', cause: error });
      if (request.signal?.aborted) return Object.assign(new Error(`${describe}: cancelled`), { name: 'AbortError', code: 'ABORT_ERR', cause: request.signal.reason });
      return error;
    };
    for (let tries = 1; ; tries++) {
      if (bucket && (!watch || request.takesToken)) observer?.rateLimited?.(request.method, (await bucket.take(signal)) / 1000, request.path);
      if (signal?.aborted) throw explain(signal.reason);
      let outcome: TryOutcome;
      let failure: unknown;
      try {
        const response = await send(request, signal);
        const code = response.statusCode ?? 0;
        observer?.response(request.method, String(code));
        if (code === 401) credentials.rejected();
        if (code >= 200 && code <= 299) return await read(response, describe);
        const retryAfterSeconds = parseRetryAfter(response.headers['retry-after']);
        failure = apiError(code, await readText(response), describe, retryAfterSeconds);
        outcome = { status: code, retryAfterSeconds };
      } catch (error) {
        if (signal?.aborted) throw explain(error);
        if (error instanceof ApiError || error instanceof SyntaxError || !(error as NodeJS.ErrnoException).code) throw error;
        const networkError = error as NodeJS.ErrnoException;
        if (networkError.code !== 'ERESPONSETIMEOUT') observer?.response(request.method, '<error>');
        failure = Object.assign(networkError, { message: networkError.message.startsWith(describe) ? networkError.message : `${describe}: ${networkError.message}` });
        outcome = { error: networkError, mayHaveBeenSent: !notSent(networkError) };
      }
      const unreachable = !('status' in outcome);
      const delayMs = watch || (request.ownBackoff && unreachable) ? undefined : retryDelayMs(request.method, outcome, tries);
      if (delayMs === undefined || performance.now() + delayMs >= endsAt) throw failure;
      observer?.retry(request.method, 'status' in outcome ? String(outcome.status) : '<error>');
      reportRetry(describe, outcome, tries, delayMs, failure);
      await sleep(delayMs, signal);
      if (signal?.aborted) throw explain(failure);
    }
  }

  // `/readyz` answers 200 only once the server serves again, to anyone authenticated. Tried
  // once, and it takes a token as any request: the limit bounds the probes too.
  const recovery = createRecoveryWatch(async (signal) => {
    try {
      (await call({ method: 'GET', path: '/readyz', accept: 'text/plain', timeoutMs: 2_000, signal, takesToken: true }, async (response) => response, true)).resume();
      return true;
    } catch {
      return false;
    }
  });

  return {
    recovered: recovery.recovered,

    request<T>(request: HttpRequest): Promise<T> {
      return call(
        request,
        async (response) => {
          const text = await readText(response);
          return (text === '' ? undefined : JSON.parse(text)) as T;
        },
        false,
      );
    },

    stream(request: HttpRequest): Promise<IncomingMessage> {
      return call(request, async (response) => response, true);
    },
  };
}

async function readText(response: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of response) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
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

/** The ApiError of a non-2xx answer: its Status when the body is one, else a message quoting the body. */
export function apiError(code: number, text: string, describe: string, retryAfterSeconds: number | undefined): ApiError {
  let status: ApiStatus | undefined;
  try {
    const parsed = JSON.parse(text) as ApiStatus;
    if (parsed && parsed.kind === 'Status') status = parsed;
  } catch {
    // Not JSON (APF's plain-text 429, a proxy's HTML page): the fallback message carries it.
  }
  const hint = code === 404 && !status ? ' (the API server does not serve this resource: is its CRD installed?)' : '';
  const fallback = `${describe}: ${code} ${STATUS_CODES[code] ?? ''}${text ? `: ${text.trim().slice(0, 200)}` : ''}${hint}`;
  return new ApiError(code, status, describe, fallback, retryAfterSeconds);
}
