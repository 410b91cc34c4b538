export { controller, type ControllerBuilder, type ControllerOptions, type WatchOptions } from './builder.js';
export { createExpectations, type Expectations, type ExpectationsOptions } from './expectations.js';
export { TerminalError, terminal, isTerminal } from './errors.js';
export { generationChanged, annotationChanged, labelChanged, labelSelector, type Predicate, type WatchEvent } from './predicates.js';
export type { Request } from './request.js';
export type { Result } from './reconcile-loop.js';
export type { Controller, ControllerHost, ReconcileContext, Reconciler } from './types.js';
