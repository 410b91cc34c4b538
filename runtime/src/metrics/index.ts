export { createMetrics, type Metrics, type MetricsOptions } from './metrics.js';
export type { ControllerMetrics, ControllerMetricFamilies, ReconcileOutcome } from './controller-metrics.js';
export type { WorkQueueMetricFamilies } from './workqueue-metrics.js';
export type { LeaderStatus } from './leader-election-metrics.js';
export type { RestClientMetrics } from './rest-client-metrics.js';
export type { InformerMetrics } from './informer-metrics.js';
