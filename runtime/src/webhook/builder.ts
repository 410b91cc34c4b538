import type { Kind } from '../api/kind.js';
import { apiVersionOf } from '../api/kind.js';
import type { Manager } from '../manager/types.js';
import type { CertificateKeyPair } from '../manager/self-signed-cert.js';
import { servingCertificate, type CertificateFiles, type ServingCertificate } from '../manager/serving-cert.js';
import { defaultingHandler, forKind, validatingHandler } from './admission.js';
import { builtInCertificate, type BuiltInCertificateOptions } from './builtin-certs.js';
import { conversionKey, type SpokeConversion } from './conversion.js';
import { reportConversionDeadlock } from './conversion-deadlock.js';
import { webhookMetrics } from './metrics.js';
import { mutatePath, validatePath } from './paths.js';
import { createWebhookServer, type WebhookServer } from './server.js';
import type { Defaulter, Validators } from './types.js';

/** Options of {@link serveWebhooks}. */
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
}

const DEFAULT_CERT_DIR = '/tmp/k8s-webhook-server/serving-certs';

const servers = new WeakMap<Manager, WebhookServer>();

function fixedCertificate(pair: CertificateKeyPair): ServingCertificate {
  return { current: pair, files: null, watch: () => () => {} };
}

/**
 * Configures the manager's webhook server; call it before `webhook(mgr)` and
 * `conversion(mgr)` to change the defaults. The server starts with the manager, before
 * its caches, on every replica; `/readyz` fails until it answers a TLS handshake.
 */
export function serveWebhooks(mgr: Manager, options: WebhookServerOptions = {}): WebhookServer {
  if (servers.has(mgr)) throw new Error('the webhook server of this manager is already configured: call serveWebhooks before webhook() and conversion()');
  const log = mgr.log.child({ logger: 'webhook' });
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
    metrics: webhookMetrics(mgr.metrics.registry),
    stopping: mgr.stopping,
    limits: defined({
      handshakeTimeoutMs: options.handshakeTimeoutMs,
      headerTimeoutMs: options.headerTimeoutMs,
      bodyTimeoutMs: options.bodyTimeoutMs,
      maxConnections: options.maxConnections,
      idleTimeoutMs: options.idleTimeoutMs,
    }),
    shutdown: defined({ delayMs: options.shutdownDelayMs, drainMs: options.drainTimeoutMs }),
  });
  servers.set(mgr, server);
  mgr.addServer(async () => {
    if (!(given && 'builtIn' in given)) return server.start();
    const builtIn = await builtInCertificate(mgr.kubeConfig, given.builtIn, log);
    certificate = builtIn;
    const listening = await server.start();
    return {
      close: async () => {
        builtIn.stop();
        await listening.close();
      },
    };
  });
  mgr.addReadyzCheck('webhook', () => server.ready());
  mgr.addRunnable((signal) => reportConversionDeadlock(mgr, server, log, signal), { needLeaderElection: false });
  return server;
}

function serverOf(mgr: Manager): WebhookServer {
  return servers.get(mgr) ?? serveWebhooks(mgr);
}

/** Declares the admission webhooks of one kind; see {@link webhook}. */
export interface WebhookBuilder<T> {
  /** Serves `fn` on the kind's `/mutate-…` path: it mutates the object in place; the response is the JSON Patch. */
  default(fn: Defaulter<T>): WebhookBuilder<T>;
  /** Serves `validators` on the kind's `/validate-…` path: throw (or `deny`) to refuse. */
  validate(validators: Validators<T>): WebhookBuilder<T>;
}

/** Admission webhooks of a kind, served by the manager's webhook server on controller-runtime's paths. */
export interface WebhookFor {
  for<T>(kind: Kind<T>, paths?: { defaulting?: string; validation?: string }): WebhookBuilder<T>;
}

/**
 * Admission webhooks on the manager's server.
 *
 * @example
 * webhook(mgr).for(Widget)
 *   .default((widget) => { widget.spec.replicas ??= 1; })
 *   .validate({ update: (old, widget) => { if (widget.spec.size < old.spec.size) throw deny('size cannot shrink'); } });
 */
export function webhook(mgr: Manager): WebhookFor {
  const server = serverOf(mgr);
  return {
    for<T>(kind: Kind<T>, paths: { defaulting?: string; validation?: string } = {}) {
      const builder: WebhookBuilder<T> = {
        default(fn) {
          server.register(paths.defaulting ?? mutatePath(kind), forKind(kind, defaultingHandler(fn)));
          return builder;
        },
        validate(validators) {
          server.register(paths.validation ?? validatePath(kind), forKind(kind, validatingHandler(validators)));
          return builder;
        },
      };
      return builder;
    },
  };
}

/** Declares a kind's conversions; see {@link conversion}. */
export interface ConversionFor {
  for(kind: Pick<Kind, 'group' | 'kind'>): {
    hub<H>(hub: Kind<H>): ConversionSpokes<H>;
  };
}

/** Adds the spokes of one hub. */
export interface ConversionSpokes<H> {
  /** A version converted to and from the hub; spoke to spoke goes through the hub. */
  spoke<S>(spoke: Kind<S>, convert: SpokeConversion<S, H>): ConversionSpokes<H>;
}

/**
 * The conversion webhook of a kind, served on `/convert` by the manager's server.
 *
 * @example
 * conversion(mgr).for(v2.Widget).hub(v2.Widget)
 *   .spoke(v1.Widget, { toHub: (w) => ({ ...w, spec: { replicas: w.spec.size } }), fromHub: (w) => ({ ...w, spec: { size: w.spec.replicas } }) });
 */
export function conversion(mgr: Manager): ConversionFor {
  const server = serverOf(mgr);
  return {
    for(kind) {
      return {
        hub<H>(hub: Kind<H>) {
          const key = conversionKey(kind.group, kind.kind);
          if (hub.group !== kind.group || hub.kind !== kind.kind) throw new Error(`the hub of ${kind.kind} must be a version of it, not ${hub.kind}`);
          if (server.conversions.has(key)) throw new Error(`${kind.kind} of ${kind.group} already has a hub`);
          const spokes = new Map<string, SpokeConversion<any, any>>();
          server.conversions.set(key, { hub, spokes });
          const builder: ConversionSpokes<H> = {
            spoke(spoke, convert) {
              if (spoke.group !== kind.group || spoke.kind !== kind.kind) throw new Error(`a spoke of ${kind.kind} must be a version of it, not ${spoke.kind}`);
              const version = apiVersionOf(spoke);
              if (version === apiVersionOf(hub) || spokes.has(version)) throw new Error(`${kind.kind} ${version} is already the hub or a spoke`);
              spokes.set(version, convert);
              return builder;
            },
          };
          return builder;
        },
      };
    },
  };
}
