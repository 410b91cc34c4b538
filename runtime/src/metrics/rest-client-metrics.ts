import { Counter, type Registry } from 'prom-client';
import type { TransportObserver } from '../client/transport.js';

/** client-go's `rest_client_*` counters, which controller-runtime serves too. */
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
  return (host) => ({
    response: (method, code) => requests.inc({ code, method, host }),
    retry: (method, code) => retries.inc({ code, verb: method, host }),
  });
}
