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
  ObjectReconciler,
  ReconcileContext,
  Reconciled,
  Reconciler,
  RequestContext,
  StatusOf,
  StatusWriter,
  ControllerRunOptions,
} from './types.js';
