/**
 * `@opgen/runtime`: what an operator's own files import. A manager, controllers declared on
 * it object-first, admission and conversion webhooks, and the few helpers a reconcile
 * reaches for (errors, conditions, ownership). The parts underneath are subpath exports:
 * `@opgen/runtime/manager`, `/controller`, `/client`, `/cache`, `/queue`,
 * `/leaderelection`, `/metrics`, `/events`, `/log`, `/helpers`, `/webhook`,
 * `/storageversion`; types for API files are in `@opgen/runtime/api`, test harnesses in
 * `@opgen/runtime/testing`.
 *
 * @example
 * import { controller, createManager, kinds, managerOptionsFromArgs } from '@opgen/runtime';
 *
 * const mgr = createManager({ ...managerOptionsFromArgs(), leaderElectionId: 'abc123.example.com' });
 * controller(mgr)
 *   .for(DemoVolume)
 *   .owns(kinds.PersistentVolumeClaim)
 *   .reconcile(async (volume, ctx) => {
 *     // …
 *   });
 * await mgr.start();
 *
 * @module
 */
export type { Kind } from './api/kind.js';
export { createManager, managerOptionsFromArgs, type Manager, type ManagerOptions } from './manager/index.js';
export {
  controller,
  createExpectations,
  terminal,
  generationChanged,
  labelSelector,
  requeue,
  channel,
  type Expectations,
  type Request,
  type Result,
  type ReconcileContext,
  type Reconciled,
} from './controller/index.js';
export { createClient, kinds, isAlreadyExists, isConflict, isForbidden, isInvalid, isNotFound, type Client, type ApplyObject } from './client/index.js';
export { controllerOf, setCondition, compareQuantities, type ConditionUpdate } from './helpers/index.js';
export { objectKey } from './object.js';
export { webhook, conversion, serveWebhooks, deny, invalid, stash, unstash, type BuiltInCertificateOptions, type SpokeConversion } from './webhook/index.js';
