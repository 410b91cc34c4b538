/**
 * What an operator did, for tools that watch it: one record per finished reconcile (its
 * triggers, start, duration, result and every API call its client made), published on Node's
 * diagnostics channel `opgen:reconcile`. `opgen dev` prints and shows them; a test can count
 * calls with them; `exportReconcileSpans` turns each into an OpenTelemetry span with a child
 * span per API call (a manager does it with `--otlp-endpoint`). Nothing is collected while
 * no one subscribes.
 *
 * @example
 * import { onReconcile } from '@opgen/runtime/observe';
 *
 * const stop = onReconcile((r) =>
 *   console.log(`${r.name}: ${r.result.type}, ${r.calls.length} API calls`),
 * );
 *
 * @module
 */
export { onReconcile, RECONCILE_CHANNEL, type ApiCallRecord, type CallIdentity, type ReconcileRecord, type ReconcileResult, type ReconcileTrigger } from './reconcile-records.js';
export { exportReconcileSpans, otlpTracesUrl, type ReconcileSpanExport, type ReconcileSpanOptions } from './otlp.js';
