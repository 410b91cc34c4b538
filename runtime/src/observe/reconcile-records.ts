/**
 * Reconcile records: one per reconcile, with what triggered it, when it started, how long it
 * took, its result and every API call its client made. They are published on the
 * diagnostics channel `opgen:reconcile` (Node's `node:diagnostics_channel`, the seam
 * tracing libraries already read) once the reconcile ended. Nothing is collected while the
 * channel has no subscriber: a production operator that nobody observes pays one
 * `hasSubscribers` check per reconcile, one `getStore` per API call and one per request it
 * sends (the transport's look for a `traceparent`).
 *
 * A record holds absolute start times and durations of the reconcile and of each call, and
 * W3C trace and span ids, so a consumer can turn it into one span with a child span per call
 * after the fact (see `exportReconcileSpans`); `opgen dev` turns it into a line and its live
 * page. While spans are exported, each call sends its span's `traceparent` header, so that
 * an API server that traces links its spans to the call's.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import { channel } from 'node:diagnostics_channel';
import { withTraceparent } from '../rest/trace-context.js';

/** The diagnostics channel records are published on. */
export const RECONCILE_CHANNEL = 'opgen:reconcile';

/** What caused a reconcile, as far as the controller knows. */
export type ReconcileTrigger =
  /** An event of a watched kind: the primary object itself, an owned child or a mapped object. */
  | { type: 'watch'; event: 'create' | 'update' | 'delete'; kind: string; namespace?: string; name: string }
  /** An item of a `.watches(source)` event source. */
  | { type: 'source'; source: string }
  /** The result of the key's previous reconcile: `requeue.after`, `requeue.now()`, or a retry after an error. */
  | { type: 'requeue'; reason: 'after' | 'now' | 'error' }
  /** Nothing the controller saw (a periodic resync of the whole kind, or the queue's backlog at start). */
  | { type: 'resync' };

/** Which API call it was. */
export interface CallIdentity {
  /** `get`, `list`, `create`, `update`, `patch`, `apply`, `delete`. */
  verb: string;
  kind: string;
  namespace?: string;
  name?: string;
  /** `status` for calls to the status subresource. */
  subresource?: string;
  /** The request's path below the server's URL (no query), e.g. `/api/v1/namespaces/a/configmaps/b`. */
  path: string;
}

/** One API call of a reconcile's client: which call it was (see {@link CallIdentity}), and how it went. */
export interface ApiCallRecord extends CallIdentity {
  /** The call's W3C span id (16 hex digits), a child of the reconcile's span. */
  spanId: string;
  /** The HTTP status of the last try; undefined when no response came. */
  code: number | undefined;
  /** The error's message when the call failed. */
  error?: string;
  /** Epoch milliseconds. */
  startedAt: number;
  durationMs: number;
}

/** How a reconcile ended. */
export type ReconcileResult =
  | { type: 'done' }
  | { type: 'requeue'; afterMs?: number }
  | { type: 'error'; message: string; terminal: boolean }
  /** Stopped by the manager (shutdown, lost leadership), not failed. */
  | { type: 'cancelled' };

/** One finished reconcile. */
export interface ReconcileRecord {
  reconcileId: string;
  /** The reconcile's W3C trace id (32 hex digits): each reconcile is a trace of its own. */
  traceId: string;
  /** The reconcile's W3C span id (16 hex digits), the parent of its calls' spans. */
  spanId: string;
  controller: string;
  /** The controller's primary kind. */
  kind: { group: string; version: string; kind: string };
  namespace?: string;
  name: string;
  /** What caused it; more than one when events arrived while the key waited in the queue. */
  triggers: ReconcileTrigger[];
  /** Epoch milliseconds. */
  startedAt: number;
  durationMs: number;
  result: ReconcileResult;
  /** In the order they started. */
  calls: ApiCallRecord[];
}

const published = channel(RECONCILE_CHANNEL);

/** Whether anyone listens: the controller collects triggers and calls only then. */
export function recordingReconciles(): boolean {
  return published.hasSubscribers;
}

/**
 * Calls `listener` with each finished reconcile of every manager in this process until the
 * returned function is called.
 *
 * @example
 * import { onReconcile } from '@opgen/runtime/observe';
 *
 * const stop = onReconcile((r) => {
 *   const took = `${r.durationMs} ms, ${r.calls.length} API calls`;
 *   console.log(`${r.kind.kind} ${r.name}: ${r.result.type} in ${took}`);
 * });
 */
export function onReconcile(listener: (record: ReconcileRecord) => void): () => void {
  const handler = (message: unknown) => listener(message as ReconcileRecord);
  published.subscribe(handler);
  return () => void published.unsubscribe(handler);
}

/** A new random W3C trace id: 32 lowercase hex digits. */
export function newTraceId(): string {
  return randomBytes(16).toString('hex');
}

/** A new random W3C span id: 16 lowercase hex digits. */
export function newSpanId(): string {
  return randomBytes(8).toString('hex');
}

let propagating = 0;

/**
 * Sends each recorded call's `traceparent` header from now on, until the returned function
 * is called: what a span exporter turns on, so that an API server's spans join its traces.
 */
export function propagateTraceContext(): () => void {
  propagating += 1;
  let ended = false;
  return () => {
    if (!ended) propagating -= 1;
    ended = true;
  };
}

/** Hands a finished record to the listeners. */
export function publishReconcile(record: ReconcileRecord): void {
  published.publish(record);
}

/** The calls of the reconcile running in this async context; `open` turns false when it ends. */
interface CallLog {
  traceId: string;
  calls: ApiCallRecord[];
  open: boolean;
}

const reconcileCalls = new AsyncLocalStorage<CallLog>();
/** The HTTP status of the call in flight in this async context (set by the transport's observer). */
const callStatus = new AsyncLocalStorage<{ code?: number }>();

/**
 * Runs the reconcile of trace `traceId` so that its client's calls land in `calls`. Calls
 * started after it ended (an informer the reconcile started keeps its context) are not recorded.
 */
export async function collectingCalls<R>(traceId: string, calls: ApiCallRecord[], fn: () => Promise<R>): Promise<R> {
  const log: CallLog = { traceId, calls, open: true };
  try {
    return await reconcileCalls.run(log, fn);
  } finally {
    log.open = false;
  }
}

/**
 * Runs `send` (one API call) and records it in the enclosing reconcile's calls, if one is
 * collecting; otherwise just runs it.
 */
export function recordedCall<R>(identity: () => CallIdentity, send: () => Promise<R>): Promise<R> {
  const log = reconcileCalls.getStore();
  if (!log?.open) return send();
  const status: { code?: number } = {};
  const spanId = newSpanId();
  const startedAt = Date.now();
  const started = performance.now();
  const finish = (error?: unknown) => {
    if (!log.open) return;
    const code = status.code ?? (error && typeof (error as { code?: unknown }).code === 'number' ? (error as { code: number }).code : undefined);
    const record: ApiCallRecord = { ...identity(), spanId, code, startedAt, durationMs: performance.now() - started };
    if (error !== undefined) record.error = error instanceof Error ? error.message : String(error);
    log.calls.push(record);
  };
  // Version 00, sampled: every recorded call is exported.
  const traced = propagating > 0 ? () => withTraceparent(`00-${log.traceId}-${spanId}-01`, send) : send;
  return callStatus.run(status, traced).then(
    (value) => {
      finish();
      return value;
    },
    (error: unknown) => {
      finish(error);
      throw error;
    },
  );
}

/** The transport's observer calls this with each response's status: it lands on the call in flight, if recorded. */
export function noteResponseCode(code: string): void {
  const status = callStatus.getStore();
  if (status) status.code = Number(code) || undefined;
}
