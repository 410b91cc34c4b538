import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/** The webhook server's instruments, under controller-runtime's names. */
export interface WebhookMetrics {
  /** A request to `webhook` (its path) ended with HTTP `code` after `seconds`. */
  served(webhook: string, code: number, seconds: number): void;
  /** An admission review was answered: allowed or not, with the code in its body. */
  admitted(webhook: string, allowed: boolean, code: number): void;
  inFlight(webhook: string, delta: 1 | -1): void;
  /** A handler failed with a bug (the analogue of a recovered Go panic). */
  panicked(): void;
}

// Registered once per registry: two servers on one manager would otherwise collide.
const families = new WeakMap<Registry, WebhookMetrics>();

export function webhookMetrics(registry: Registry): WebhookMetrics {
  const existing = families.get(registry);
  if (existing) return existing;
  const registers = [registry];
  const requests = new Counter({
    name: 'controller_runtime_webhook_requests_total',
    help: 'Total number of admission requests by HTTP status code.',
    labelNames: ['webhook', 'code'] as const,
    registers,
  });
  const latency = new Histogram({
    name: 'controller_runtime_webhook_latency_seconds',
    help: 'Histogram of the latency of processing admission requests',
    labelNames: ['webhook'] as const,
    registers,
  });
  const inFlight = new Gauge({
    name: 'controller_runtime_webhook_requests_in_flight',
    help: 'Current number of admission requests being served.',
    labelNames: ['webhook'] as const,
    registers,
  });
  const panics = new Counter({
    name: 'controller_runtime_webhook_panics_total',
    help: 'Total number of webhook panics',
    registers,
  });
  // Not in controller-runtime (its issue 2972): an allow and a deny both answer HTTP 200.
  const responses = new Counter({
    name: 'controller_runtime_webhook_admission_responses_total',
    help: 'Total number of admission responses by webhook, allowed and the code in the response.',
    labelNames: ['webhook', 'allowed', 'code'] as const,
    registers,
  });
  panics.inc(0);
  const metrics: WebhookMetrics = {
    served(webhook, code, seconds) {
      requests.inc({ webhook, code: String(code) });
      latency.observe({ webhook }, seconds);
    },
    admitted(webhook, allowed, code) {
      responses.inc({ webhook, allowed: String(allowed), code: String(code) });
    },
    inFlight(webhook, delta) {
      inFlight.inc({ webhook }, delta);
    },
    panicked() {
      panics.inc();
    },
  };
  families.set(registry, metrics);
  return metrics;
}
