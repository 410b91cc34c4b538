import { hasSinglePass, singlePass } from '../../controller/once.js';
import { requestOfItem, type SourceItem } from '../../controller/sources.js';
import type { Result } from '../../controller/requeue.js';
import type { Controller } from '../../controller/types.js';

/**
 * Runs `controller`'s reconcile once for `target` (an object or a `{ namespace, name }`
 * request), outside its work queue, and resolves with what it returned; what it threw is
 * thrown, with no retry. For a manager that is not started: reads then go to the API
 * server, as before a cache syncs (index lists need the running cache: use
 * `runUntilIdle()` for them).
 *
 * @example
 * const podSets = controller(mgr).for(PodSet).owns(kinds.Pod).reconcile(reconcilePodSet);
 * const podSet = await mgr.client.create(PodSet, {
 *   metadata: { name: 'web', namespace: 'default' },
 *   spec: { replicas: 2 },
 * });
 * expect(await reconcileOnce(podSets, podSet)).toEqual(requeue.after('30s'));
 */
export async function reconcileOnce(controller: Controller, target: SourceItem, options: { signal?: AbortSignal } = {}): Promise<Result> {
  if (!hasSinglePass(controller)) throw new Error(`reconcileOnce: ${controller.name} was not built by controller(mgr)…reconcile(): call its own code instead`);
  const request = requestOfItem(target);
  if (!request) throw new Error('reconcileOnce: the target has no name: pass the object as stored, or { namespace, name }');
  return controller[singlePass](request, options.signal);
}
