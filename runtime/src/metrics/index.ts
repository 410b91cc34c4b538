/**
 * Prometheus metrics with controller-runtime's names (`controller_runtime_reconcile_total`,
 * `workqueue_depth`, `rest_client_requests_total`, `leader_election_master_status`, …) in
 * one prom-client registry.
 *
 * Public surface:
 * - `createMetrics({ processMetrics? })` → {@link Metrics}: `registry` (add your own metrics to
 *   it), and the families the runtime's parts record into.
 *
 * Imported as `@opgen/runtime/metrics`; a manager's own is `mgr.metrics`, served on
 * `--metrics-bind-address`.
 *
 * @example
 * import { Counter } from 'prom-client';
 *
 * const backups = new Counter({
 *   name: 'shop_backups_total',
 *   help: 'Backups taken',
 *   registers: [mgr.metrics.registry],
 * });
 * backups.inc();
 *
 * @module
 */
export { createMetrics, type Metrics, type MetricsOptions } from './metrics.js';
export type { ControllerMetrics, ControllerMetricFamilies, ReconcileOutcome } from './controller-metrics.js';
export type { WorkQueueMetricFamilies } from './workqueue-metrics.js';
export type { LeaderStatus } from './leader-election-metrics.js';
export type { RestClientMetrics } from './rest-client-metrics.js';
export type { InformerMetrics } from './informer-metrics.js';
