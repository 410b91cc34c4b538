/**
 * Reconcile records as OpenTelemetry spans, sent to an OTLP/HTTP collector in batches. Only
 * `exportReconcileSpans` loads this module (and with it the OpenTelemetry SDK), when tracing
 * is on: an operator that does not trace never loads it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SpanKind, SpanStatusCode, TraceFlags, type Attributes, type HrTime, type SpanContext, type SpanStatus } from '@opentelemetry/api';
import { ExportResultCode } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { defaultResource, detectResources, envDetector, resourceFromAttributes, type Resource } from '@opentelemetry/resources';
import { BatchSpanProcessor, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace';
import { ATTR_ERROR_TYPE, ATTR_HTTP_RESPONSE_STATUS_CODE, ATTR_SERVICE_NAME, ATTR_URL_PATH } from '@opentelemetry/semantic-conventions';
import type { LoggerLike } from '../rest/logger.js';
import type { ApiCallRecord, ReconcileRecord } from './reconcile-records.js';

/** What the exporter needs: where to send, as whom, where to say that sending failed. */
export interface SpanPipelineOptions {
  /** The full traces URL; undefined: the SDK's `OTEL_EXPORTER_OTLP_*` environment. */
  url: string | undefined;
  serviceName: string | undefined;
  log: LoggerLike;
}

/** Takes finished records; `stop` sends what is batched and stops. */
export interface SpanPipeline {
  add(record: ReconcileRecord): void;
  stop(): Promise<void>;
}

/** A batching OTLP/HTTP (JSON) pipeline for reconcile records. */
export function spanPipeline(options: SpanPipelineOptions): SpanPipeline {
  const resource = serviceResource(options.serviceName);
  const processor = new BatchSpanProcessor({ exporter: loggingFailures(new OTLPTraceExporter(options.url ? { url: options.url } : {}), options.log) });
  return {
    add: (record) => reconcileSpans(record, resource).forEach((span) => processor.onEnd(span)),
    stop: () => processor.shutdown(),
  };
}

/**
 * `service.name`: the one given, else `OTEL_SERVICE_NAME` (or `OTEL_RESOURCE_ATTRIBUTES`), else
 * the `name` of the working directory's package.json (an operator runs from its project, or
 * from the image's `/app`, which holds it), else the SDK's `unknown_service:node`.
 */
function serviceResource(serviceName: string | undefined): Resource {
  let resource = defaultResource();
  const packageName = workingDirectoryPackageName();
  if (packageName) resource = resource.merge(resourceFromAttributes({ [ATTR_SERVICE_NAME]: packageName }));
  resource = resource.merge(detectResources({ detectors: [envDetector] }));
  return serviceName ? resource.merge(resourceFromAttributes({ [ATTR_SERVICE_NAME]: serviceName })) : resource;
}

function workingDirectoryPackageName(): string | undefined {
  try {
    const { name } = JSON.parse(readFileSync(join(process.cwd(), 'package.json'), 'utf8')) as { name?: unknown };
    return typeof name === 'string' && name !== '' ? name : undefined;
  } catch {
    return undefined;
  }
}

/** A collector that cannot be reached or refuses: said in the operator's log, not only to OpenTelemetry's silent diag. */
function loggingFailures(exporter: SpanExporter, log: LoggerLike): SpanExporter {
  return {
    export(spans, done) {
      exporter.export(spans, (result) => {
        if (result.code !== ExportResultCode.SUCCESS) log.warn({ spans: spans.length, error: result.error?.message }, 'Exporting reconcile spans failed');
        done(result);
      });
    },
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve(),
  };
}

const SCOPE = { name: '@opgen/runtime' };

/** The reconcile's span, then one child span per API call, in the order they started. */
function reconcileSpans(record: ReconcileRecord, resource: Resource): ReadableSpan[] {
  const parent = { traceId: record.traceId, spanId: record.spanId, traceFlags: TraceFlags.SAMPLED };
  const attributes: Attributes = {
    'opgen.controller': record.controller,
    'opgen.reconcile_id': record.reconcileId,
    'opgen.group': record.kind.group,
    'opgen.version': record.kind.version,
    'opgen.kind': record.kind.kind,
    'opgen.name': record.name,
    // Each cause as it is in the record, in JSON: what a trace viewer shows verbatim.
    'opgen.triggers': record.triggers.map((trigger) => JSON.stringify(trigger)),
    'opgen.result': record.result.type,
  };
  if (record.namespace) attributes['k8s.namespace.name'] = record.namespace;
  if (record.result.type === 'requeue' && record.result.afterMs) attributes['opgen.requeue_after_ms'] = record.result.afterMs;
  if (record.result.type === 'error') attributes['opgen.error.terminal'] = record.result.terminal;
  const status: SpanStatus = record.result.type === 'error' ? { code: SpanStatusCode.ERROR, message: record.result.message } : { code: SpanStatusCode.UNSET };
  const reconcile = span(`reconcile ${record.controller}`, SpanKind.INTERNAL, parent, undefined, record.startedAt, record.durationMs, attributes, status, resource);
  return [reconcile, ...record.calls.map((call) => callSpan(call, parent, resource))];
}

/** An API call as an HTTP client span: 4xx, 5xx and no answer are errors, as OpenTelemetry's HTTP conventions say. */
function callSpan(call: ApiCallRecord, parent: SpanContext, resource: Resource): ReadableSpan {
  const attributes: Attributes = { 'opgen.verb': call.verb, 'opgen.kind': call.kind, [ATTR_URL_PATH]: call.path };
  if (call.namespace) attributes['k8s.namespace.name'] = call.namespace;
  if (call.name) attributes['opgen.name'] = call.name;
  if (call.subresource) attributes['opgen.subresource'] = call.subresource;
  if (call.code !== undefined) attributes[ATTR_HTTP_RESPONSE_STATUS_CODE] = call.code;
  const failed = call.code === undefined || call.code >= 400;
  if (failed) attributes[ATTR_ERROR_TYPE] = call.code === undefined ? 'no response' : String(call.code);
  const status: SpanStatus = failed ? { code: SpanStatusCode.ERROR, ...(call.error ? { message: call.error } : {}) } : { code: SpanStatusCode.UNSET };
  const name = `${call.verb} ${call.kind}${call.subresource ? `/${call.subresource}` : ''}`;
  const context = { traceId: parent.traceId, spanId: call.spanId, traceFlags: TraceFlags.SAMPLED };
  return span(name, SpanKind.CLIENT, context, parent, call.startedAt, call.durationMs, attributes, status, resource);
}

function span(name: string, kind: SpanKind, context: SpanContext, parent: SpanContext | undefined, startedAt: number, durationMs: number, attributes: Attributes, status: SpanStatus, resource: Resource): ReadableSpan {
  return {
    name,
    kind,
    spanContext: () => context,
    ...(parent ? { parentSpanContext: parent } : {}),
    startTime: hrTime(startedAt),
    endTime: hrTime(startedAt + durationMs),
    duration: hrTime(durationMs),
    status,
    attributes,
    links: [],
    events: [],
    ended: true,
    resource,
    instrumentationScope: SCOPE,
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  };
}

/** Milliseconds (epoch or a duration) as OpenTelemetry's [seconds, nanoseconds]. */
function hrTime(ms: number): HrTime {
  const seconds = Math.floor(ms / 1000);
  return [seconds, Math.min(999_999_999, Math.round((ms - seconds * 1000) * 1e6))];
}
