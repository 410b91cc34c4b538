import type { RequestListener } from 'node:http';
import type { Registry } from 'prom-client';
import type { BindAddress } from './bind-address.js';
import { listen, type HttpServer } from './http-server.js';

/** `GET /metrics` in the Prometheus text format; everything else is 404. */
export function metricsHandler(registry: Registry): RequestListener {
  return (request, response) => {
    const path = new URL(request.url ?? '/', 'http://metrics').pathname;
    if (path !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('404 page not found\n');
      return;
    }
    registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': registry.contentType }).end(text),
      (error: unknown) => response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end(`${String(error)}\n`),
    );
  };
}

/**
 * Serves the metrics endpoint over plain HTTP. The one place to change for authenticated
 * HTTPS serving: it takes the address and the handler, and returns the running server.
 */
export function serveMetrics(bind: BindAddress, handler: RequestListener): Promise<HttpServer> {
  return listen(bind, handler);
}
