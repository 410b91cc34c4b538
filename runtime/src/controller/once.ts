import type { Request } from './request.js';
import type { Result } from './requeue.js';
import type { Controller } from './types.js';

/**
 * Where a built controller keeps its single pass, for `reconcileOnce` of
 * `@opgen/runtime/testing`: a symbol, so the {@link Controller} interface users see stays
 * as it is.
 */
export const singlePass = Symbol('opgen.controller.singlePass');

/** A controller built by `controller(mgr)…reconcile()`, which can reconcile one request outside its loop. */
export interface SinglePassController extends Controller {
  [singlePass](request: Request, signal?: AbortSignal): Promise<Result>;
}

/** Whether `controller` was built by the builder and so has a single pass. */
export function hasSinglePass(controller: Controller): controller is SinglePassController {
  return typeof (controller as Partial<SinglePassController>)[singlePass] === 'function';
}
