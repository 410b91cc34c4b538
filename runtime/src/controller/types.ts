import type { Cache } from '../cache/types.js';
import type { Client } from '../client/index.js';
import type { EventRecorder } from '../events/index.js';
import type { Logger } from '../log/index.js';
import type { Metrics } from '../metrics/index.js';
import type { Request } from './request.js';
import type { Result } from './reconcile-loop.js';

/** Everything one reconcile gets besides its request. */
export interface ReconcileContext {
  /**
   * Reads from the shared cache, writes to the API server with this controller's field
   * manager. Its calls are cancelled when leadership is lost, when `reconcileTimeoutMs`
   * passes, or when a graceful shutdown times out; a graceful stop lets them finish.
   */
  client: Client;
  /** Carries controller, controllerGroup, controllerKind, namespace, name and reconcileID. */
  log: Logger;
  /** Records Kubernetes Events as this controller. */
  recorder: EventRecorder;
  /**
   * Aborted when this reconcile should end: the manager stops, leadership is lost, or
   * `reconcileTimeoutMs` passes. Pass it to long waits so they end early.
   */
  signal: AbortSignal;
  /** Unique per reconcile; every log line written during the reconcile carries it. */
  reconcileId: string;
}

/** The user's reconcile function. Throw to retry with backoff; throw a `TerminalError` to give up. */
export type Reconciler = (request: Request, context: ReconcileContext) => Promise<Result> | Result;

/** What a manager hands a controller it runs. */
export interface ControllerRunOptions {
  /** Aborts the API calls of in-flight reconciles (lost leadership, shutdown timed out). */
  cancel?: AbortSignal;
  /**
   * Whether this process may still act (leads the election): checked synchronously right
   * before each reconcile and each of its API calls, which after an event-loop stall may
   * run before any timer could notice the lease is gone.
   */
  fence?: () => boolean;
}

/** A running unit of a manager, e.g. a controller. */
export interface Controller {
  readonly name: string;
  /**
   * Watches, waits for the cache, and reconciles until `signal` aborts; then stops taking
   * work and resolves once in-flight reconciles have finished.
   */
  run(signal: AbortSignal, options?: ControllerRunOptions): Promise<void>;
}

/** What a controller needs from its manager. `createManager` returns one. */
export interface ControllerHost {
  readonly cache: Cache;
  readonly log: Logger;
  readonly metrics: Metrics;
  /** The shared client, reading from the shared cache; each controller writes as its own field manager. */
  readonly client: Client;
  /** An event recorder reporting as `component`. */
  eventRecorder(component: string): EventRecorder;
  /** Registers `controller` to run while this process leads; names must be unique. */
  addController(controller: Controller): void;
}
