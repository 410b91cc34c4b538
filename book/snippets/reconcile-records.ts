// The "Developing" chapter's record listener; test/book/ type-checks it and runs it on the
// memory cluster.
// #region listener
import { onReconcile, type ReconcileRecord } from '@opgen/runtime/observe';

/** Counts API calls per controller, e.g. for a test that a reconcile stays cheap. */
export function countCalls(): { calls: Map<string, number>; stop: () => void } {
  const calls = new Map<string, number>();
  const stop = onReconcile((record: ReconcileRecord) => {
    calls.set(record.controller, (calls.get(record.controller) ?? 0) + record.calls.length);
  });
  return { calls, stop };
}
// #endregion listener
