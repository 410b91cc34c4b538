import { randomUUID } from 'node:crypto';
import type { Logger } from '../log/index.js';
import { withLogContext } from '../log/index.js';
import type { ControllerMetrics, ReconcileOutcome } from '../metrics/index.js';
import type { WorkQueue } from '../queue/index.js';
import { conflictOf, isProgrammingFault, isTerminal } from './errors.js';
import type { Action, Result } from './requeue.js';
import { requestOf, type Request } from './request.js';
import { systemClock, type Clock } from '../time/clock.js';
import type { Kind } from '../api/kind.js';
import { collectingCalls, publishReconcile, recordingReconciles, newSpanId, newTraceId, type ApiCallRecord, type ReconcileResult } from '../observe/reconcile-records.js';
import type { TriggerBook } from './triggers.js';

/** Options of {@link runReconcileLoop}. */
export interface ReconcileLoopOptions<Ctx> {
  queue: WorkQueue;
  reconcile: (request: Request, context: Ctx) => Promise<Result> | Result;
  /**
   * Builds the context of one reconcile; `log` already carries the object's fields.
   * `signal` ends the reconcile's waits (stop, cancellation, timeout); `callSignal` its API
   * calls (cancellation, timeout: a stop lets in-flight writes finish).
   */
  context: (request: Request, reconcileId: string, log: Logger, signals: ReconcileSignals) => Ctx;
  /** Stop taking work: a reconcile's waits should end. */
  stop?: AbortSignal;
  /** Abort every reconcile's API calls now (lost leadership, shutdown timed out). */
  cancel?: AbortSignal;
  /** Checked right before each reconcile: false skips it (leadership is gone, the loop is ending). */
  fence?: () => boolean;
  /** A reconcile running longer than this is cancelled and retried with backoff; default none. */
  reconcileTimeoutMs?: number;
  /** Time of `reconcileTimeoutMs`; default real time. */
  clock?: Clock;
  /** The controller's logger; each reconcile logs through a child naming the object. */
  log: Logger;
  metrics: ControllerMetrics;
  /** How many keys are reconciled at once (each key by one worker at a time). */
  workers: number;
  /**
   * Decides what follows a failed reconcile (not a terminal one): its {@link Action}, or
   * `undefined` to wait for the next change. Left out: retry after the key's backoff.
   */
  onError?: (error: unknown, request: Request, context: Ctx) => Action | undefined;
  /**
   * Who publishes reconcile records (see observe/reconcile-records) while someone listens:
   * the controller's name and kind, and the causes of queued keys it noted. Left out: none.
   */
  records?: { controller: string; kind: Kind; triggers: TriggerBook };
}

/** The signals of one reconcile; see {@link ReconcileLoopOptions.context}. */
export interface ReconcileSignals {
  signal: AbortSignal;
  callSignal: AbortSignal | undefined;
}

/**
 * Runs `workers` workers that take keys from the queue and reconcile them until the queue
 * shuts down; resolves once every worker has finished its current reconcile. A reconcile
 * that throws never escapes: it is logged, counted and retried with backoff (unless the
 * error is terminal).
 */
export async function runReconcileLoop<Ctx>(options: ReconcileLoopOptions<Ctx>): Promise<void> {
  const { queue } = options;
  const worker = async (): Promise<void> => {
    for (let key = await queue.get(); key !== undefined; key = await queue.get()) {
      try {
        if (options.fence?.() !== false) await reconcileKey(key, options);
        // Fenced off (a sharded replica whose Lease renewal is late): kept for later, not
        // dropped; a leader that lost its Lease exits anyway.
        else queue.addRateLimited(key);
      } finally {
        queue.done(key);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.workers) }, worker));
}

async function reconcileKey<Ctx>(key: string, options: ReconcileLoopOptions<Ctx>): Promise<void> {
  const { queue, metrics } = options;
  const request = requestOf(key);
  // Taken before the reconcile runs: what arrives while it runs causes the next one.
  const triggers = options.records?.triggers.take(key) ?? [];
  const reconcileId = randomUUID();
  const log = options.log.child(request.namespace ? { namespace: request.namespace, name: request.name } : { name: request.name });
  const started = performance.now();
  const timeoutMs = options.reconcileTimeoutMs;
  const timeout = timeoutMs ? new AbortController() : undefined;
  const timer = timeout && (options.clock ?? systemClock).setTimer(() => timeout.abort(new Error('reconcile timed out')), timeoutMs!);
  const callSignal = anySignal([options.cancel, timeout?.signal]);
  const signal = anySignal([options.stop, callSignal]);
  let outcome: ReconcileOutcome = 'success';
  let context: Ctx | undefined;
  // Only while someone listens: the reconcile's calls, and how it ended in a record's words.
  const records = options.records && recordingReconciles() ? options.records : undefined;
  const calls: ApiCallRecord[] = [];
  const traceId = records ? newTraceId() : '';
  let result: ReconcileResult = { type: 'done' };
  const startedAt = Date.now();
  metrics.activeWorkers(1);
  try {
    const run = (fn: () => Promise<void>) => (records ? collectingCalls(traceId, calls, fn) : fn());
    await withLogContext({ reconcileID: reconcileId }, () => run(async () => {
      try {
        log.debug('Reconciling');
        context = options.context(request, reconcileId, log, { signal: signal ?? new AbortController().signal, callSignal });
        const returned = await options.reconcile(request, context);
        outcome = follow(queue, key, returned, records?.triggers);
        if (outcome !== 'success') result = { type: 'requeue', ...(returned?.requeueAfter ? { afterMs: returned.requeueAfter } : {}) };
        log.debug({ outcome }, 'Reconcile done');
      } catch (caught) {
        const error = timeout?.signal.aborted ? new Error(`reconcile cancelled: still running after reconcileTimeout ${timeoutMs} ms`, { cause: caught }) : caught;
        outcome = 'error';
        result = { type: 'error', message: error instanceof Error ? error.message : String(error), terminal: isTerminal(error) };
        if (options.cancel?.aborted) {
          result = { type: 'cancelled' };
          // Leadership lost or shutdown timed out: the reconcile was stopped, it did not fail.
          log.info({ reason: String(options.cancel.reason) }, 'Reconcile cancelled');
          return;
        }
        metrics.errored();
        if (isProgrammingFault(error)) metrics.panicked();
        if (isTerminal(error)) {
          metrics.terminal();
          queue.forget(key);
          log.error({ err: error }, 'Reconciler error (terminal, not retried)');
        } else if (options.onError && context !== undefined) {
          const action = options.onError(error, request, context);
          log.error({ err: error, action: action ?? 'wait for change' }, 'Reconciler error');
          if (action?.requeueAfter || action?.requeue) follow(queue, key, action, records?.triggers);
          else queue.forget(key);
        } else {
          queue.addRateLimited(key);
          records?.triggers.note(key, { type: 'requeue', reason: 'error' });
          const conflict = conflictOf(error);
          // A conflict is a lost race the retry resolves, not a failure: one short line, no stacks.
          if (conflict) log.info({ reason: 'Conflict', error: conflict.message, retries: queue.numRequeues(key) }, 'Reconcile conflict, retrying');
          else log.error({ err: error, retries: queue.numRequeues(key) }, 'Reconciler error');
        }
      }
    }));
  } finally {
    timer?.cancel();
    metrics.activeWorkers(-1);
    const seconds = (performance.now() - started) / 1000;
    metrics.reconciled(outcome, seconds);
    if (records) {
      const { group, version, kind } = records.kind;
      publishReconcile({ reconcileId, traceId, spanId: newSpanId(), controller: records.controller, kind: { group, version, kind }, ...request, triggers, startedAt, durationMs: seconds * 1000, result, calls });
    }
  }
}

/** Queues `key` again as `result` asks (noting why in `triggers`); returns what that counts as. */
function follow(queue: WorkQueue, key: string, result: Result, triggers: TriggerBook | undefined): ReconcileOutcome {
  const requeueAfter = result?.requeueAfter ?? 0;
  if (requeueAfter > 0) {
    queue.forget(key);
    queue.addAfter(key, requeueAfter);
    triggers?.note(key, { type: 'requeue', reason: 'after' });
    return 'requeue_after';
  }
  if (result?.requeue) {
    queue.addRateLimited(key);
    triggers?.note(key, { type: 'requeue', reason: 'now' });
    return 'requeue';
  }
  queue.forget(key);
  return 'success';
}

function anySignal(signals: (AbortSignal | undefined)[]): AbortSignal | undefined {
  const present = signals.filter((s): s is AbortSignal => s !== undefined);
  return present.length > 1 ? AbortSignal.any(present) : present[0];
}
