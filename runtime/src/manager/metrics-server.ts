import type { RequestListener } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { Registry } from 'prom-client';
import { withTimeout, type Cluster } from '../rest/cluster.js';
import type { Logger } from '../log/index.js';
import { cachedAccessReviews } from './access-reviews.js';
import type { BindAddress } from '../http/bind-address.js';
import { listen, type HttpServer } from '../http/http-server.js';
import { serverTlsOptions, tlsContextOptions, type TlsSettings } from '../http/tls.js';
import type { ManagerOptions } from './options.js';
import { requireAuthorization, type Guard } from './metrics-auth.js';
import type { CertificateKeyPair } from '../certs/self-signed-cert.js';
import { servingCertificate, type CertificateFiles } from '../certs/serving-cert.js';

/** How the metrics endpoint is protected. */
export interface MetricsSecurity {
  /** The cluster whose API server authenticates and authorizes callers: the reviews take its tokens and show in its metrics. */
  cluster: Cluster;
  /** The serving certificate; a self-signed one when undefined. */
  certificate?: CertificateFiles;
  log: Logger;
  /** Default TLS 1.2 at least, Node's cipher suites, HTTP/1.1 only. */
  tls?: TlsSettings;
}

/** The {@link MetricsSecurity} a manager's options ask for. */
export function metricsSecurity(cluster: Cluster, options: ManagerOptions, log: Logger): MetricsSecurity {
  const certificate = options.metricsCertPath
    ? { dir: options.metricsCertPath, certName: options.metricsCertName, keyName: options.metricsCertKey }
    : undefined;
  return { cluster, certificate, log: log.child({ logger: 'metrics' }), tls: options.tls };
}

// controller-runtime's TokenAccessReviewTimeout: a hung review must not hang the scrape.
const REVIEW_TIMEOUT_MS = 10_000;

/** `GET /metrics` in the Prometheus text format, after `guard` lets it through; everything else is 404. */
function metricsHandler(registry: Registry, guard?: Guard): RequestListener {
  return (request, response) => {
    const path = new URL(request.url ?? '/', 'http://metrics').pathname;
    if (path !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('404 page not found\n');
      return;
    }
    const serve = () =>
      registry.metrics().then(
        (text) => response.writeHead(200, { 'content-type': registry.contentType }).end(text),
        (error: unknown) => response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end(`${String(error)}\n`),
      );
    if (guard) guard(request, response, () => void serve());
    else void serve();
  };
}

/**
 * Serves `registry` on `bind`: over plain HTTP to anyone, or, with `security`, over
 * HTTPS to callers the API server authenticates and allows `get` on `/metrics`
 * (kubebuilder's `--metrics-secure`). A certificate from files is reloaded when the files
 * change; connections already open keep the one they started with.
 */
export async function serveMetrics(bind: BindAddress, registry: Registry, security?: MetricsSecurity): Promise<HttpServer> {
  if (!security) return listen(bind, metricsHandler(registry));

  const certificate = servingCertificate(security.certificate, security.log);
  const reviews = cachedAccessReviews(withTimeout(security.cluster.transport, REVIEW_TIMEOUT_MS));
  const handler = metricsHandler(registry, requireAuthorization(reviews, security.log));
  let tls: Server | undefined;
  const server = await listen(bind, handler, (h) => (tls = createServer({ ...tlsOptions(certificate.current, security.tls), ...serverTlsOptions(security.tls) }, h)));
  const stopWatching = certificate.watch((pair) => tls?.setSecureContext(tlsOptions(pair, security.tls)));
  return {
    ...server,
    close: async () => {
      stopWatching();
      await server.close();
    },
  };
}

function tlsOptions(pair: CertificateKeyPair, tls: TlsSettings | undefined) {
  return { cert: pair.certPem, key: pair.keyPem, ...tlsContextOptions(tls) };
}
