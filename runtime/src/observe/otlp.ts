/**
 * OpenTelemetry tracing of reconciles: each reconcile record (see reconcile-records) becomes
 * a span with a child span per API call, sent over OTLP/HTTP. The SDK is loaded only once
 * tracing is turned on.
 */
import { silentLogger, type LoggerLike } from '../rest/logger.js';
import { onReconcile, propagateTraceContext } from './reconcile-records.js';

/** Options of {@link exportReconcileSpans}. */
export interface ReconcileSpanOptions {
  /**
   * Where to send spans (OTLP/HTTP): a collector's base URL, e.g. `http://otel-collector:4318`
   * (`/v1/traces` is added), or the full URL of its traces endpoint. Default: the
   * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` or `OTEL_EXPORTER_OTLP_ENDPOINT` environment variable,
   * as OpenTelemetry's SDKs read them (`OTEL_EXPORTER_OTLP_HEADERS` and `_TIMEOUT` apply too).
   */
  endpoint?: string;
  /**
   * The spans' `service.name`. Default: `OTEL_SERVICE_NAME`, else the `name` in the working
   * directory's package.json (the project's, in the scaffold's image too), else `unknown_service:node`.
   */
  serviceName?: string;
  /** Where a failed export is logged (warn); default nowhere. */
  log?: LoggerLike;
}

/** A running export; see {@link exportReconcileSpans}. */
export interface ReconcileSpanExport {
  /** Stops turning reconciles into spans, sends what is batched and ends the export. */
  stop(): Promise<void>;
}

/**
 * Exports every reconcile of every manager in this process as an OpenTelemetry span until
 * stopped: a span named `reconcile <controller>` (attributes `opgen.controller`,
 * `opgen.group`/`opgen.version`/`opgen.kind`, `k8s.namespace.name`, `opgen.name`,
 * `opgen.triggers`, `opgen.result`, `opgen.reconcile_id` as in the logs' `reconcileID`;
 * status error with the message when the reconcile failed), with a client span per API call
 * (`<verb> <Kind>`: `opgen.verb`, `url.path`, `http.response.status_code`; error on 4xx, 5xx
 * or no answer). Spans are batched and sent over OTLP/HTTP (JSON). Each API call of a
 * reconcile carries its span's W3C `traceparent` header meanwhile, so an API server that
 * traces its requests joins the trace. A manager does this itself when given `--otlp-endpoint`
 * (`ManagerOptions.otlpEndpoint`), and stops it on shutdown.
 *
 * @example
 * import { exportReconcileSpans } from '@opgen/runtime/observe';
 *
 * const tracing = await exportReconcileSpans({
 *   endpoint: 'http://otel-collector:4318',
 *   serviceName: 'widget-operator',
 * });
 * // … run the manager …
 * await tracing.stop();
 */
export async function exportReconcileSpans(options: ReconcileSpanOptions = {}): Promise<ReconcileSpanExport> {
  const url = options.endpoint === undefined ? undefined : otlpTracesUrl(options.endpoint);
  const { spanPipeline } = await import('./otlp-spans.js');
  const pipeline = spanPipeline({ url, serviceName: options.serviceName, log: options.log ?? silentLogger });
  const unsubscribe = onReconcile((record) => pipeline.add(record));
  const stopPropagating = propagateTraceContext();
  return {
    async stop() {
      unsubscribe();
      stopPropagating();
      await pipeline.stop();
    },
  };
}

/**
 * The traces URL of an OTLP/HTTP `endpoint`: a base URL (no path) gets `/v1/traces`, a URL
 * with a path is used as it is. Throws a one-line error for anything but an http(s) URL.
 *
 * @example
 * otlpTracesUrl('http://otel-collector:4318'); // 'http://otel-collector:4318/v1/traces'
 */
export function otlpTracesUrl(endpoint: string): string {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new Error(`the OTLP endpoint must be an http:// or https:// URL, not "${endpoint}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`the OTLP endpoint must be an http:// or https:// URL, not "${endpoint}"`);
  if (url.pathname === '/' || url.pathname === '') url.pathname = '/v1/traces';
  return url.toString();
}

/** Whether the environment names an OTLP endpoint, which turns tracing on as OpenTelemetry's SDKs do. */
export function otlpEndpointInEnvironment(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT);
}
