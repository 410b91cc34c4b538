import { Counter, Histogram, type Registry } from 'prom-client';
import type { TransportObserver } from '../rest/transport.js';

/** client-go's `rest_client_*` metrics, under the names and labels controller-runtime serves them with. */
export type RestClientMetrics = (host: string) => TransportObserver;

export function registerRestClientMetrics(registry: Registry): RestClientMetrics {
  const requests = new Counter({
    name: 'rest_client_requests_total',
    help: 'Number of HTTP requests, partitioned by status code, method, and host.',
    labelNames: ['code', 'method', 'host'] as const,
    registers: [registry],
  });
  const retries = new Counter({
    name: 'rest_client_request_retries_total',
    help: 'Number of request retries, partitioned by status code, verb, and host.',
    labelNames: ['code', 'verb', 'host'] as const,
    registers: [registry],
  });
  // client-go observes every wait of a request in its rate limiter (zero included), and
  // nothing when no limiter is set; `verb` is the HTTP method, as client-go labels it.
  const rateLimiterWaits = new Histogram({
    name: 'rest_client_rate_limiter_duration_seconds',
    help: 'Client side rate limiter latency in seconds. Broken down by verb, and host.',
    labelNames: ['verb', 'host'] as const,
    buckets: [0.005, 0.025, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60],
    registers: [registry],
  });
  return (host) => ({
    response: (method, code) => requests.inc({ code, method, host }),
    retry: (method, code) => retries.inc({ code, verb: method, host }),
    rateLimited: (method, seconds) => rateLimiterWaits.observe({ verb: method, host }, seconds),
  });
}
