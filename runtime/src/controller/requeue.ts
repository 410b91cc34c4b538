import { parseDuration } from '../helpers/duration.js';

/**
 * What a reconcile or an error policy asks for next, as kube-rs's `Action`: build one with
 * {@link requeue}. Returning nothing means done: wait for the next change.
 * `requeueAfter` (ms) reconciles again after that delay and resets the key's backoff;
 * `requeue: true` reconciles again after the key's backoff. `requeueAfter` wins when both
 * are set. The plain object form is accepted too (`{ requeueAfter: 60_000 }`).
 *
 * @example
 * const later: Action = requeue.after('30s'); // { requeueAfter: 30000 }
 */
export interface Action {
  requeueAfter?: number;
  requeue?: boolean;
}

/**
 * What a reconcile returns: an {@link Action}, or nothing when the object is in its desired state.
 *
 * @example
 * async function reconcile(
 *   widget: Reconciled<Widget>,
 *   ctx: ReconcileContext<Widget>,
 * ): Promise<Result> {
 *   return widget.status?.ready ? undefined : requeue.after('10s');
 * }
 */
export type Result = void | undefined | Action;

/**
 * Builds a reconcile's {@link Action}.
 *
 * @example
 * .reconcile(async (podSet, ctx) => {
 *   if (!ready) return requeue.after('30s'); // look again in 30 s
 *   return;                                   // done until the next change
 * })
 */
export const requeue = {
  /**
   * Reconcile again after `delay`: a Go duration string (`'90s'`, `'5m'`, `'1h30m'`) or
   * milliseconds. Resets the key's error backoff; an event before then reconciles sooner.
   *
   * @example
   * return requeue.after('5m');
   */
  after(delay: string | number): Action {
    const ms = typeof delay === 'number' ? delay : parseDuration(delay);
    if (ms === undefined || !Number.isFinite(ms) || ms < 0) {
      throw new Error(`requeue.after: ${JSON.stringify(delay)} is not a duration such as '30s', '5m' or 60000`);
    }
    return { requeueAfter: ms };
  },

  /**
   * Reconcile again soon: after the key's backoff (5 ms, doubling each time it is asked
   * for in a row, up to 1000 s), so a reconcile that keeps returning it never spins.
   *
   * @example
   * if (stillStarting) return requeue.now();
   */
  now(): Action {
    return { requeue: true };
  },
} as const;
