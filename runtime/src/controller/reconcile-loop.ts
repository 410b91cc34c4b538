import { randomUUID } from 'node:crypto';
import type { Logger } from '../log/index.js';
import { withLogContext } from '../log/index.js';
import type { ControllerMetrics, ReconcileOutcome } from '../metrics/index.js';
import type { WorkQueue } from '../queue/index.js';
import { isProgrammingFault, isTerminal } from './errors.js';
import { requestOf, type Request } from './request.js';

/**
 * What a reconcile asks for next. Return nothing when the object is in its desired state.
 * `requeueAfter` (ms) reconciles again after that delay (and resets the backoff);
 * `requeue: true` reconciles again after the key's backoff. `requeueAfter` wins when both
 * are set.
 */
export type Result = void | undefined | { requeueAfter?: number; requeue?: boolean };

/** Options of {@link runReconcileLoop}. */
export interface ReconcileLoopOptions<Ctx> {
  queue: WorkQueue;
  reconcile: (request: Request, context: Ctx) => Promise<Result> | Result;
  /** Builds the context of one reconcile; `log` already carries the object's fields. */
  context: (request: Request, reconcileId: string, log: Logger) => Ctx;
  /** The controller's logger; each reconcile logs through a child naming the object. */
  log: Logger;
  metrics: ControllerMetrics;
  /** How many keys are reconciled at once (each key by one worker at a time). */
  workers: number;
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
        await reconcileKey(key, options);
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
  const reconcileId = randomUUID();
  const log = options.log.child(request.namespace ? { namespace: request.namespace, name: request.name } : { name: request.name });
  const started = performance.now();
  let outcome: ReconcileOutcome = 'success';
  metrics.activeWorkers(1);
  try {
    await withLogContext({ reconcileID: reconcileId }, async () => {
      try {
        log.debug('Reconciling');
        const result = await options.reconcile(request, options.context(request, reconcileId, log));
        const requeueAfter = result?.requeueAfter ?? 0;
        if (requeueAfter > 0) {
          outcome = 'requeue_after';
          queue.forget(key);
          queue.addAfter(key, requeueAfter);
        } else if (result?.requeue) {
          outcome = 'requeue';
          queue.addRateLimited(key);
        } else {
          queue.forget(key);
        }
        log.debug({ outcome }, 'Reconcile done');
      } catch (error) {
        outcome = 'error';
        metrics.errored();
        if (isProgrammingFault(error)) metrics.panicked();
        if (isTerminal(error)) {
          metrics.terminal();
          queue.forget(key);
          log.error({ err: error }, 'Reconciler error (terminal, not retried)');
        } else {
          queue.addRateLimited(key);
          log.error({ err: error, retries: queue.numRequeues(key) }, 'Reconciler error');
        }
      }
    });
  } finally {
    metrics.activeWorkers(-1);
    metrics.reconciled(outcome, (performance.now() - started) / 1000);
  }
}
