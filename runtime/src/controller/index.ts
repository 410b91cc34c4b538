/**
 * Controllers: `controller(mgr).for(Kind)…reconcile(fn)` and everything it is made of:
 * the builder's options and watches, predicates, the reconcile context and result types,
 * terminal errors, expectations, and the object types (`Stored`, `DeepReadonly`,
 * `KubeObject`) a reconcile receives.
 *
 * Imported as `@opgen/runtime/controller`; the names an operator's controllers use every
 * day (`controller`, `requeue`, `terminal`, `generationChanged`, `labelSelector`,
 * `createExpectations`, `ReconcileContext`, `Reconciled`, `Request`, `Result`) are also in
 * the root export.
 *
 * @example
 * import { controller } from '@opgen/runtime';
 * import { annotationChanged, type Stored } from '@opgen/runtime/controller';
 *
 * const summary = (store: Stored<BookStore>) => `${store.metadata.namespace}/${store.metadata.name}`;
 * controller(mgr, { maxConcurrentReconciles: 4 })
 *   .for(BookStore, { predicates: [annotationChanged()] })
 *   .reconcile(async (store, ctx) => ctx.log.info({ store: summary(store) }, 'Seen'));
 *
 * @module
 */
export { objectKey, type DeepReadonly, type KubeObject, type Stored, type StoredMeta } from '../object.js';
export { controller, type ControllerBuilder, type ControllerOptions, type WatchOptions } from './builder.js';
export { createExpectations, type Expectations, type ExpectationsOptions } from './expectations.js';
export { TerminalError, terminal, isTerminal } from './errors.js';
export { generationChanged, annotationChanged, labelChanged, labelSelector, type Predicate, type WatchEvent } from './predicates.js';
export type { Request } from './request.js';
export { channel, type Channel, type EventSource, type SourceItem } from './sources.js';
export { requeue, type Action, type Result } from './requeue.js';
export type {
  Controller,
  ControllerHost,
  ErrorPolicy,
  FinalizerHandlers,
  LegacyRequestFields,
  ObjectContext,
  ChildApplyOptions,
  ObjectReconciler,
  ReconcileContext,
  Reconciled,
  Reconciler,
  RequestContext,
  StatusOf,
  StatusWriter,
  ControllerRunOptions,
} from './types.js';
