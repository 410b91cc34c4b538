import type { Registry } from 'prom-client';
import type { Cache } from '../cache/index.js';
import { servingCertificate, type CertificateFiles, type CertificateKeyPair, type ServingCertificate } from '../certs/index.js';
import type { Cluster } from '../rest/cluster.js';
import type { Logger } from '../log/index.js';
import type { TlsSettings } from '../http/tls.js';
import { builtInCertificate, type BuiltInCertificateOptions } from './builtin-certs.js';
import { reportConversionDeadlock } from './conversion-deadlock.js';
import { webhookMetrics } from './metrics.js';
import { createWebhookServer, type WebhookServer } from './server.js';

/** Options of `serveWebhooks`: where the manager's webhook server listens, and with which certificate. */
export interface WebhookServerOptions {
  /** Default all interfaces. */
  host?: string;
  /** Default 9443 (kubebuilder's `--webhook-port`); 0 picks a free port. */
  port?: number;
  /**
   * The serving certificate: a PEM pair; files (e.g. a mounted cert-manager Secret)
   * re-read when they change; or `{ builtIn }`, a CA and certificate the manager keeps in
   * a Secret and injects into its webhook configurations and CRDs. Default the files
   * `tls.crt` and `tls.key` in `/tmp/k8s-webhook-server/serving-certs`, controller-runtime's default.
   */
  certificate?: CertificateKeyPair | CertificateFiles | { builtIn: BuiltInCertificateOptions };
  /**
   * How long a client may take for its TLS handshake, counted from the TCP connection;
   * default 32 000 (Go bounds it by controller-runtime's header timeout). A slow client
   * is disconnected within a second of it.
   */
  handshakeTimeoutMs?: number;
  /** How long a client may take to send a request's headers; default 32 000, controller-runtime's. */
  headerTimeoutMs?: number;
  /** How long a client may take to send a request's body once its headers are in; default 32 000. Answered 408. */
  bodyTimeoutMs?: number;
  /** Connections open at once; more are closed as they arrive (logged at most every 30 s); default 1024. */
  maxConnections?: number;
  /** How long a kept-alive connection may sit idle; default 90 000, controller-runtime's. */
  idleTimeoutMs?: number;
  /**
   * On shutdown (SIGTERM), how long the server still accepts connections while `/readyz`
   * already fails, so the Service drops this replica before it refuses any; default 2 000.
   * Responses sent meanwhile close their connection, so clients reconnect elsewhere.
   */
  shutdownDelayMs?: number;
  /**
   * Once the server no longer accepts, how long admissions and conversions in flight may
   * take to finish before their connections are cut; default 30 000 (the API server waits
   * at most 30 s for a webhook).
   */
  drainTimeoutMs?: number;
  /** TLS settings; default the manager's `tls` option (TLS 1.2 at least, HTTP/1.1 only). */
  tls?: TlsSettings;
}

const DEFAULT_CERT_DIR = '/tmp/k8s-webhook-server/serving-certs';

/** What of its manager a webhook server uses. */
export interface WebhookServerHost {
  /** The manager's one cluster: the built-in certificates' requests take its tokens and show in its metrics. */
  readonly cluster: Cluster;
  readonly log: Logger;
  readonly metrics: { readonly registry: Registry };
  readonly cache: Pick<Cache, 'health'>;
  /** Aborted when the manager begins to stop: the server then fails `/readyz` and drains. */
  readonly stopping: AbortSignal;
}

/** A manager's webhook server and the runnables the manager registers for it. */
export interface ManagedWebhookServer {
  readonly server: WebhookServer;
  /** Starts it (loading the built-in certificates first, when configured); run before the caches, on every replica. */
  start(): Promise<{ close(): Promise<void> }>;
  /** Warns while the caches wait on this server's own conversions; runs on every replica until they synced. */
  watchConversions(signal: AbortSignal): Promise<void>;
}

function fixedCertificate(pair: CertificateKeyPair): ServingCertificate {
  return { current: pair, files: null, watch: () => () => {} };
}

/** The webhook server of a manager, created by the manager on its first `webhookServer()` call. */
export function managedWebhookServer(host: WebhookServerHost, options: WebhookServerOptions = {}): ManagedWebhookServer {
  const log = host.log.child({ logger: 'webhook' });
  const given = options.certificate;
  let certificate: ServingCertificate | undefined;
  const lazyCertificate: ServingCertificate = {
    // Read at start, not now: the files may be mounted after the process began.
    get current() {
      if (given && 'builtIn' in given && !certificate) throw new Error('the built-in webhook certificates are not loaded yet');
      certificate ??= given && 'certPem' in given ? fixedCertificate(given) : servingCertificate(given && 'dir' in given ? given : { dir: DEFAULT_CERT_DIR }, log, 'webhook server');
      return certificate.current;
    },
    get files() {
      return certificate?.files ?? null;
    },
    watch: (onChange) => certificate?.watch(onChange) ?? (() => {}),
  };
  const defined = <T extends object>(values: T): Partial<T> => Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as Partial<T>;
  const server = createWebhookServer({
    host: options.host,
    port: options.port,
    certificate: lazyCertificate,
    log,
    metrics: webhookMetrics(host.metrics.registry),
    stopping: host.stopping,
    limits: defined({
      handshakeTimeoutMs: options.handshakeTimeoutMs,
      headerTimeoutMs: options.headerTimeoutMs,
      bodyTimeoutMs: options.bodyTimeoutMs,
      maxConnections: options.maxConnections,
      idleTimeoutMs: options.idleTimeoutMs,
    }),
    shutdown: defined({ delayMs: options.shutdownDelayMs, drainMs: options.drainTimeoutMs }),
    tls: options.tls,
  });
  return {
    server,
    async start() {
      if (!(given && 'builtIn' in given)) return server.start();
      const builtIn = await builtInCertificate(host.cluster, given.builtIn, log);
      certificate = builtIn;
      const listening = await server.start();
      return {
        close: async () => {
          builtIn.stop();
          await listening.close();
        },
      };
    },
    watchConversions: (signal) => reportConversionDeadlock(host.cache, server, log, signal),
  };
}
