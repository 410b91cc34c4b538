import { X509Certificate } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import { connect } from 'node:tls';
import type { Logger } from '../log/index.js';
import { listen, type HttpServer } from '../http/http-server.js';
import { serverTlsOptions, tlsContextOptions, type TlsSettings } from '../http/tls.js';
import type { ServingCertificate } from '../certs/index.js';
import type { AdmissionHandler } from './admission.js';
import { DEFAULT_CONNECTION_LIMITS, headerTimeoutOptions, limitConnections, type ConnectionLimits } from './connection-limits.js';
import { convertReview, type ConversionRegistry } from './conversion.js';
import { isBug } from './deny.js';
import { parseGoDuration } from './duration.js';
import type { WebhookMetrics } from './metrics.js';
import { BodyTimeout, BodyTooLarge, readBody } from './read-body.js';
import { parseAdmissionReview, parseConversionReview } from './review.js';
import { CONVERT_PATH } from './paths.js';
import type { AdmissionRequest, AdmissionResponse, WebhookContext } from './types.js';

/** controller-runtime's limit on a review's body. */
export const MAX_BODY_BYTES = 7 * 1024 * 1024;

/** How much of an oversized body is read and thrown away so that its client sees the 413. */
export const MAX_DISCARD_BYTES = 32 * 1024 * 1024;

/** How a {@link WebhookServer} stops. */
export interface ShutdownTimes {
  /**
   * From the start of the shutdown (`stopping` aborted), how long the server still accepts
   * connections while `/readyz` already fails: time for the Service to drop this replica
   * before new connections are refused.
   */
  delayMs: number;
  /** Once it no longer accepts, how long requests in flight may take to finish. */
  drainMs: number;
  /**
   * Once it no longer accepts, how long a kept-alive connection may carry one more request
   * (answered with `Connection: close`) before it is closed idle. Closing one the client is
   * just sending on fails that request with EOF; the client's most recently used connections,
   * which it picks first, are retired cleanly meanwhile.
   */
  idleGraceMs: number;
}

/** 2 s for endpoints to propagate; 30 s, the longest `timeoutSeconds` the API server allows; 5 s for idle connections. */
export const DEFAULT_SHUTDOWN: ShutdownTimes = { delayMs: 2_000, drainMs: 30_000, idleGraceMs: 5_000 };

/** Where and how a {@link WebhookServer} listens. */
export interface WebhookServerConfig {
  /** Default all interfaces. */
  host?: string;
  /** Default 9443, kubebuilder's `--webhook-port`; 0 picks a free one. */
  port?: number;
  certificate: ServingCertificate;
  log: Logger;
  metrics: WebhookMetrics;
  /** Default {@link DEFAULT_CONNECTION_LIMITS}. */
  limits?: Partial<ConnectionLimits>;
  /** Aborted when the process begins to stop: the server then reports not ready and drains. */
  stopping?: AbortSignal;
  /** Default {@link DEFAULT_SHUTDOWN}. */
  shutdown?: Partial<ShutdownTimes>;
  /** Default TLS 1.2 at least, Node's cipher suites, HTTP/1.1 only. */
  tls?: TlsSettings;
}

/** An HTTPS server for admission and conversion reviews. */
export interface WebhookServer {
  /** Serves an admission webhook on `path`; a path is registered once. */
  register(path: string, handler: AdmissionHandler): void;
  /** The conversions `/convert` serves; filled by `conversion(mgr)`. */
  readonly conversions: ConversionRegistry;
  /**
   * Listens; resolves once the port is bound. Its `close` waits for the shutdown delay,
   * then stops accepting and lets requests in flight finish up to the drain bound.
   */
  start(): Promise<Pick<HttpServer, 'address' | 'port' | 'close'>>;
  /** `https://<host>:<port>` once started; loopback when listening on every interface. */
  readonly url: string | undefined;
  /** How many conversion reviews have been answered: lets a test see the API server call `/convert`. */
  readonly conversionReviews: number;
  /** The certificate served now, PEM: what a client's CA bundle must trust. */
  readonly certificatePem: string;
  /** Throws unless the listener completes a TLS handshake presenting the current certificate. */
  ready(): Promise<void>;
}

function send(response: ServerResponse, status: number, body: unknown): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  response.writeHead(status, { 'content-type': typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/json' }).end(text);
}

/** Answers and closes the connection once the answer is out: what follows on it is not a request. */
function sendAndClose(response: ServerResponse, status: number, body: string): void {
  response.setHeader('connection', 'close');
  response.once('finish', () => response.socket?.destroySoon());
  send(response, status, body);
}

/**
 * The handler's signal: aborted when the API server's deadline passes (the `timeout`
 * parameter of the URL) or the connection closes before the answer is sent.
 */
function callSignal(request: IncomingMessage, response: ServerResponse): { signal: AbortSignal; done(): void } {
  const controller = new AbortController();
  const timeoutMs = parseGoDuration(new URL(request.url ?? '/', 'https://webhook').searchParams.get('timeout'));
  const timer = timeoutMs === undefined ? undefined : setTimeout(() => controller.abort(new Error(`the API server's timeout of ${timeoutMs} ms passed`)), timeoutMs);
  const hungUp = (): void => {
    if (!response.writableFinished) controller.abort(new Error('the API server closed the connection'));
  };
  response.once('close', hungUp);
  return {
    signal: controller.signal,
    done() {
      clearTimeout(timer);
      response.off('close', hungUp);
    },
  };
}

/** Creates the server; nothing listens before {@link WebhookServer.start}. */
export function createWebhookServer(config: WebhookServerConfig): WebhookServer {
  const { log, metrics, certificate } = config;
  const limits: ConnectionLimits = { ...DEFAULT_CONNECTION_LIMITS, ...config.limits };
  const shutdown: ShutdownTimes = { ...DEFAULT_SHUTDOWN, ...config.shutdown };
  const tls = serverTlsOptions(config.tls);
  const context = tlsContextOptions(config.tls);
  let stoppingSince: number | undefined;
  const beginShutdown = (): void => {
    stoppingSince = performance.now();
    log.info({ inFlight, acceptingForMs: shutdown.delayMs }, 'Shutting down the webhook server: not ready, still serving until the Service has dropped this replica');
  };
  const admission = new Map<string, AdmissionHandler>();
  const conversions: ConversionRegistry = new Map();
  let url: string | undefined;
  let port: number | undefined;
  let conversionReviews = 0;
  let inFlight = 0;
  if (config.stopping?.aborted) beginShutdown();
  else config.stopping?.addEventListener('abort', beginShutdown, { once: true });

  async function serveAdmission(path: string, handler: AdmissionHandler, body: Buffer, signal: AbortSignal): Promise<{ status: number; body: unknown }> {
    const parsed = parseAdmissionReview(body);
    if ('error' in parsed) return { status: 400, body: `${parsed.error}\n` };
    const request: AdmissionRequest = parsed.request;
    let response: AdmissionResponse;
    try {
      response = await handler(request, { signal, log: log.child({ webhook: path, uid: request.uid }) });
    } catch (error) {
      if (isBug(error)) metrics.panicked();
      log.error({ err: error, webhook: path, uid: request.uid }, 'Webhook handler failed');
      response = { uid: request.uid, allowed: false, status: { code: 500, message: (error as Error).message ?? String(error), reason: 'InternalError' } };
    }
    const code = response.status?.code ?? 200;
    metrics.admitted(path, response.allowed, code);
    const object = request.object ?? request.oldObject;
    log[response.allowed ? 'debug' : 'info'](
      {
        webhook: path,
        uid: request.uid,
        kind: request.kind?.kind,
        namespace: request.namespace,
        name: request.name || object?.metadata?.name || object?.metadata?.generateName,
        user: request.userInfo?.username,
        operation: request.operation,
        allowed: response.allowed,
        code,
        ...(response.status ? { message: response.status.message } : {}),
      },
      response.allowed ? 'Admitted' : 'Denied',
    );
    return { status: 200, body: { apiVersion: parsed.apiVersion, kind: 'AdmissionReview', response } };
  }

  async function serveConversion(body: Buffer, signal: AbortSignal): Promise<{ status: number; body: unknown }> {
    const parsed = parseConversionReview(body);
    if ('error' in parsed) return { status: 400, body: `${parsed.error}\n` };
    const context: WebhookContext = { signal, log: log.child({ webhook: CONVERT_PATH, uid: parsed.request.uid }) };
    const response = await convertReview(conversions, parsed.request, context, (error) => {
      metrics.panicked();
      log.error({ err: error, webhook: CONVERT_PATH, uid: parsed.request.uid }, 'Conversion failed with a bug');
    });
    conversionReviews += 1;
    if (response.result.status === 'Failure') {
      log.info({ webhook: CONVERT_PATH, uid: parsed.request.uid, desiredAPIVersion: parsed.request.desiredAPIVersion, message: response.result.message }, 'Conversion failed');
    }
    return { status: 200, body: { apiVersion: parsed.apiVersion, kind: 'ConversionReview', response } };
  }

  const served = (path: string): boolean => admission.has(path) || (path === CONVERT_PATH && conversions.size > 0);

  /**
   * Whether a request's declared body is too large to read: answered 413 before the client
   * sends it (with `Expect: 100-continue`), or by `handle` once read and thrown away.
   */
  const declaredTooLarge = (request: IncomingMessage): boolean => Number(request.headers['content-length'] ?? 0) > MAX_BODY_BYTES;

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = new URL(request.url ?? '/', 'https://webhook').pathname;
    const handler = admission.get(path);
    // Shutting down: the client's next request goes through the Service to another replica.
    if (stoppingSince !== undefined) response.setHeader('connection', 'close');
    if (!served(path)) {
      send(response, 404, '404 page not found\n');
      return;
    }
    const began = performance.now();
    metrics.inFlight(path, 1);
    inFlight += 1;
    let status = 500;
    try {
      const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
      if (request.method !== 'POST') {
        status = 405;
        send(response, status, `${request.method ?? ''} is not allowed: reviews are POSTed\n`);
        return;
      }
      if (type !== 'application/json') {
        status = 400;
        send(response, status, `contentType=${type || 'none'}, expected application/json\n`);
        return;
      }
      let body: Buffer;
      try {
        body = await readBody(request, { maxBytes: MAX_BODY_BYTES, discardBytes: MAX_DISCARD_BYTES, timeoutMs: limits.bodyTimeoutMs });
      } catch (error) {
        if (error instanceof BodyTimeout) {
          status = 408;
          sendAndClose(response, status, `the body did not arrive within ${limits.bodyTimeoutMs} ms\n`);
          response.socket?.destroy();
        } else {
          status = error instanceof BodyTooLarge ? 413 : 400;
          sendAndClose(response, status, error instanceof BodyTooLarge ? `the body exceeds ${MAX_BODY_BYTES} bytes\n` : `cannot read the body\n`);
        }
        return;
      }
      const call = callSignal(request, response);
      try {
        const answer = handler ? await serveAdmission(path, handler, body, call.signal) : await serveConversion(body, call.signal);
        status = answer.status;
        // Asked for before the shutdown began, answered after it: the connection ends here too.
        if (stoppingSince !== undefined) response.setHeader('connection', 'close');
        send(response, status, answer.body);
      } finally {
        call.done();
      }
    } finally {
      inFlight -= 1;
      metrics.inFlight(path, -1);
      metrics.served(path, status, (performance.now() - began) / 1000);
    }
  }

  return {
    register(path, handler) {
      if (!path.startsWith('/')) throw new Error(`webhook path "${path}" must start with /`);
      if (admission.has(path) || path === CONVERT_PATH) throw new Error(`a webhook is already registered on ${path}`);
      admission.set(path, handler);
    },
    conversions,
    async start() {
      const server = await listen(
        { host: config.host, port: config.port ?? 9443 },
        (request, response) => {
          handle(request, response).catch((error: unknown) => {
            log.error({ err: error }, 'Webhook request failed');
            if (!response.headersSent) send(response, 500, 'internal error\n');
          });
        },
        (handler) => {
          // controller-runtime's webhook server: 1 MiB of headers; timeouts as connection-limits.ts says.
          const https = createServer({ cert: certificate.current.certPem, key: certificate.current.keyPem, maxHeaderSize: 1 << 20, ...headerTimeoutOptions(limits), ...tls }, handler);
          limitConnections(https, limits, log);
          // Refused before the client sends it: nothing to read, nothing reset.
          https.on('checkContinue', (request: IncomingMessage, response: ServerResponse) => {
            if (served(new URL(request.url ?? '/', 'https://webhook').pathname) && declaredTooLarge(request)) {
              sendAndClose(response, 413, `the body exceeds ${MAX_BODY_BYTES} bytes\n`);
              return;
            }
            response.writeContinue();
            handler(request, response);
          });
          const stopWatching = certificate.watch((pair) => https.setSecureContext({ cert: pair.certPem, key: pair.keyPem, ...context }));
          https.on('close', stopWatching);
          return https;
        },
      );
      port = server.port;
      const host = config.host && config.host !== '0.0.0.0' && config.host !== '::' ? config.host : '127.0.0.1';
      url = `https://${host.includes(':') ? `[${host}]` : host}:${port}`;
      log.info({ address: server.address }, 'Serving webhooks');
      return {
        address: server.address,
        port: server.port,
        close: async () => {
          if (stoppingSince !== undefined) {
            const wait = stoppingSince + shutdown.delayMs - performance.now();
            if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
          }
          log.info({ inFlight, drainMs: shutdown.drainMs }, 'Stopping the webhook server: requests in flight may finish');
          const began = performance.now();
          await server.close({ drainMs: shutdown.drainMs, idleGraceMs: shutdown.idleGraceMs });
          log.info({ inFlight, waitedMs: Math.round(performance.now() - began) }, 'Webhook server stopped');
        },
      };
    },
    get url() {
      return url;
    },
    get conversionReviews() {
      return conversionReviews;
    },
    get certificatePem() {
      return certificate.current.certPem;
    },
    ready() {
      if (port === undefined) return Promise.reject(new Error('the webhook server is not listening yet'));
      if (stoppingSince !== undefined) return Promise.reject(new Error('the webhook server is shutting down'));
      const expected = new X509Certificate(certificate.current.certPem).raw;
      const host = new URL(url ?? 'https://127.0.0.1').hostname.replace(/^\[|\]$/g, '');
      return new Promise<void>((resolve, reject) => {
        // Verification is not the point here: the check is that this listener answers with this certificate.
        const socket = connect({ host, port, rejectUnauthorized: false }, () => {
          const served = socket.getPeerCertificate().raw;
          socket.destroy();
          if (served && expected.equals(served)) resolve();
          else reject(new Error('the webhook server does not serve its current certificate yet'));
        });
        socket.setTimeout(5_000, () => socket.destroy(new Error('TLS handshake with the webhook server timed out')));
        socket.on('error', (error) => reject(new Error(`the webhook server does not answer a TLS handshake: ${error.message}`)));
      });
    },
  };
}
