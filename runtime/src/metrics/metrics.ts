import { collectDefaultMetrics, Registry } from 'prom-client';
import { registerControllerMetrics, type ControllerMetricFamilies } from './controller-metrics.js';
import { registerInformerMetrics, type InformerMetrics } from './informer-metrics.js';
import { registerLeaderElectionMetrics, type LeaderStatus } from './leader-election-metrics.js';
import { registerRestClientMetrics, type RestClientMetrics } from './rest-client-metrics.js';
import { registerWorkQueueMetrics, type WorkQueueMetricFamilies } from './workqueue-metrics.js';

/**
 * A manager's Prometheus metrics under controller-runtime's names. Each manager owns its
 * registry, so several managers in one process (tests, benchmarks) never collide; register
 * your own metrics on `registry` to have them served on `/metrics` too.
 */
export interface Metrics {
  readonly registry: Registry;
  readonly controllers: ControllerMetricFamilies;
  readonly workQueues: WorkQueueMetricFamilies;
  readonly leaderStatus: LeaderStatus;
  /**
   * `rest_client_requests_total`, `rest_client_request_retries_total` and
   * `rest_client_rate_limiter_duration_seconds` of the clients talking to `host`.
   */
  readonly restClient: RestClientMetrics;
  /** Connects `opgen_informer_*` gauges to a cache's health. */
  readonly informers: InformerMetrics;
}

/** Options of {@link createMetrics}. */
export interface MetricsOptions {
  /** Also expose Node.js process metrics (`process_*`, `nodejs_*`); default true. */
  processMetrics?: boolean;
}

/**
 * The manager's metrics: one registry with controller-runtime's families (controllers, work
 * queues, REST clients), opgen's informer gauges and, by default, Node's process metrics.
 *
 * @example
 * const metrics = createMetrics();
 * const text = await metrics.registry.metrics();
 */
export function createMetrics(options: MetricsOptions = {}): Metrics {
  const registry = new Registry();
  if (options.processMetrics !== false) collectDefaultMetrics({ register: registry });
  return {
    registry,
    controllers: registerControllerMetrics(registry),
    workQueues: registerWorkQueueMetrics(registry),
    leaderStatus: registerLeaderElectionMetrics(registry),
    restClient: registerRestClientMetrics(registry),
    informers: registerInformerMetrics(registry),
  };
}
