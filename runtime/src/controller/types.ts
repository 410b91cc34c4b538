import type { Kind } from '../api/kind.js';
import type { Cache } from '../cache/types.js';
import type { ApplyObject, ApplyOptions, Client, DeleteOptions } from '../client/index.js';
import type { EventRecorder } from '../events/index.js';
import type { ConditionUpdate } from '../helpers/conditions.js';
import type { Logger } from '../log/index.js';
import type { Metrics } from '../metrics/index.js';
import type { DeepReadonly, KubeObject, Stored } from '../object.js';
import type { WatchEvent } from './predicates.js';
import type { Request } from './request.js';
import type { Action, Result } from './requeue.js';
import type { Clock } from '../time/clock.js';

/** What every reconcile gets besides its object or request. */
export interface RequestContext {
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
  /**
   * The cluster this reconcile runs on: in a manager with a cluster provider
   * (`createManager({ clusters })`) the engaged cluster, whose client `client` above is; in a
   * single-cluster manager the manager's own cluster, named `''` (multicluster-runtime's
   * name for the local cluster).
   *
   * @example
   * ctx.log.info({ cluster: ctx.cluster.name }, 'reconciling');
   */
  cluster: ReconcileCluster;
  /**
   * The clusters engaged now, for work that crosses clusters on purpose: a write to
   * another cluster goes through `ctx.clusters.get(name).client`, never by accident.
   * Set in a manager with a cluster provider only: a single-cluster manager has no other.
   *
   * @example
   * const hub = ctx.clusters?.get('hub');
   * if (hub) await hub.client.apply(kinds.ConfigMap, summary);
   */
  clusters?: ClusterSet;
}

/** One engaged cluster as a reconcile sees it: its name, its client (writing as the controller) and its cache. */
export interface ReconcileCluster {
  /** The provider's name for the cluster (a Secret's name, a namespace, a key of a static list). */
  readonly name: string;
  /** Reads from this cluster's cache, writes to its API server. */
  readonly client: Client;
  readonly cache: Cache;
}

/**
 * The clusters a manager with a cluster provider has engaged.
 *
 * @example
 * for (const name of mgr.clusters!.names()) console.log(name, mgr.clusters!.get(name)?.synced());
 */
export interface ClusterSet {
  /** The engaged cluster `name`; undefined when no such cluster is engaged (now). */
  get(name: string): (ReconcileCluster & {
    /** Whether the cluster's caches have synced. */
    synced(): boolean;
  }) | undefined;
  /** Names of the engaged clusters, sorted. */
  names(): string[];
}

/**
 * What runs a controller on every cluster of a fleet; a manager with a cluster provider
 * has one (see `@opgen/runtime/multicluster`).
 */
export interface ControllerFleet {
  /**
   * A controller that runs what `build` makes once per engaged cluster, each on that
   * cluster's own host (cache, client, queue, backoff), started when the cluster is
   * engaged and stopped, its queue dropped, when it is disengaged.
   */
  controller(name: string, build: (host: ControllerHost) => Controller): Controller;
}

/**
 * The object a reconcile, a handler, a predicate or a map function is handed: as stored
 * ({@link Stored}: its identity is there) and read-only ({@link DeepReadonly}: it is the
 * cache's view; copy it with `structuredClone` to build on it).
 *
 * @example
 * function podsWanted(podSet: Reconciled<PodSet>): number {
 *   return podSet.spec.replicas;
 * }
 */
export type Reconciled<T extends KubeObject, Namespaced extends boolean = boolean> = DeepReadonly<Stored<T, Namespaced>>;

/**
 * The request fields that reconciles written in the request form read from their first
 * argument; see {@link ControllerBuilder.reconcile}.
 *
 * @example
 * // 0.1.0's form, still compiling: `req` is the object, carrying its name and namespace.
 * .reconcile(async (req, ctx) => {
 *   const podSet = await ctx.client.get(PodSet, req.name, req.namespace);
 * })
 */
export interface LegacyRequestFields {
  /** @deprecated The object is handed in: read `metadata.name`. */
  readonly name: string;
  /** @deprecated The object is handed in: read `metadata.namespace`. */
  readonly namespace?: string;
}

/**
 * The status of `T`, what `ctx.status.apply` takes a part of.
 *
 * @example
 * const status: ApplyObject<StatusOf<PodSet>> = { readyReplicas: 2 };
 */
export type StatusOf<T> = T extends { status?: infer S } ? NonNullable<S> : never;

/** Writes the status subresource of the object being reconciled; see {@link ObjectContext.status}. */
export interface StatusWriter<T extends KubeObject, Namespaced extends boolean = boolean> {
  /**
   * Server-side apply of `status` on the status subresource, as this controller's field
   * manager: only the fields given are claimed, and other managers' fields stay, including
   * their items of lists declared `+listType=map` (such as conditions keyed by `type`).
   * Several calls in one reconcile add up to one intent. As with any apply, a field this
   * controller applied before and no longer gives is removed, so give the whole intent
   * each reconcile. Resolves to the object as stored.
   *
   * @example
   * await ctx.status.apply({ readyReplicas: ready.length, podNames });
   */
  apply(status: ApplyObject<StatusOf<T>>): Promise<Stored<T, Namespaced>>;
  /**
   * Sets one condition in `status.conditions` as `meta.SetStatusCondition` does:
   * `lastTransitionTime` changes only when `status` changes, `observedGeneration` is the
   * object's generation. Writes nothing when the condition is already so. Each condition
   * type is applied as its own field manager (`<controller>/conditions/<type>`), so it
   * stays when a later `status.apply` leaves conditions out, and other writers' conditions
   * stay too. Needs `conditions` declared `+listType=map` and `+listMapKey=type`, as the
   * scaffold's are.
   *
   * @example
   * await ctx.status.setCondition({
   *   type: 'Ready',
   *   status: 'True',
   *   reason: 'PodsRunning',
   *   message: `${ready} of ${wanted} Pods ready`,
   * });
   */
  setCondition(condition: ConditionUpdate): Promise<void>;
}

/**
 * The two halves of {@link ObjectContext.finalize}.
 *
 * @example
 * const handlers: FinalizerHandlers = {
 *   apply: () => ensureBucket(site),
 *   cleanup: () => deleteBucket(site),
 * };
 */
export interface FinalizerHandlers {
  /** The object is live and carries the finalizer: reconcile it as usual. */
  apply: () => Result | Promise<Result>;
  /**
   * The object is being deleted: release what the finalizer guards. Throw (retried with
   * backoff) or return `requeue.after(…)` to keep the finalizer and come back; return
   * nothing once clean, and the finalizer is removed.
   */
  cleanup: () => Result | Promise<Result>;
}

/**
 * Options of {@link ObjectContext.apply}: the client's apply options and `adopt`.
 *
 * @example
 * await ctx.apply(kinds.ConfigMap, { metadata: { name: `${name}-config` }, data }, { adopt: true });
 */
export interface ChildApplyOptions extends ApplyOptions {
  /**
   * Take over an existing object of that name that no controller owns (it becomes this
   * object's child, and is garbage-collected with it). Default false: such an object is
   * refused with a `NotOwnedError`, since it may be someone else's that happens to have
   * the name. Adopt as the Deployment and ReplicaSet controllers do, only what is
   * unmistakably yours: e.g. it carries your selector's labels, or your operator made it
   * before it set owner references. An object another controller owns is never adopted.
   */
  adopt?: boolean;
}

/**
 * What an object-first reconcile gets: the {@link RequestContext} and writes that are
 * right by default. Children written through it are owned by the reconciled object (a
 * controller owner reference, so `.owns()` maps their events back and the garbage
 * collector deletes them with it), default to its namespace, and are written with this
 * controller's field manager and the reconcile's signal.
 *
 * These writes act only on the reconciled object's own children: an existing object
 * another controller owns is refused with an `AlreadyOwnedError` naming both owners, and
 * one no controller owns with a `NotOwnedError` unless `apply` says `adopt: true`. Name
 * children so that they cannot meet someone else's by accident (`<name>-<purpose>`).
 */
export interface ObjectContext<T extends KubeObject, Namespaced extends boolean = boolean> extends RequestContext {
  /**
   * Creates `child` of kind `kind`, controlled by the reconciled object. Resolves to the
   * object as stored; fails with `isAlreadyExists` when it exists (an existing object is
   * never changed).
   *
   * @example
   * await ctx.create(kinds.Pod, { metadata: { generateName: `${name}-` }, spec });
   */
  create<C extends KubeObject, N extends boolean>(kind: Kind<C, N>, child: DeepReadonly<C>): Promise<Stored<C, N>>;
  /**
   * Server-side apply of `child` (name it in `metadata.name`), controlled by the
   * reconciled object: creates it or brings the fields given to these values. Forced, as a
   * controller is the authority over what it applies, but only on its own children: the
   * live object is checked first (another controller's: `AlreadyOwnedError`; nobody's:
   * `NotOwnedError` unless `adopt: true`), and the apply is conditional on the object
   * checked, so one made or replaced by someone else meanwhile is refused, not taken over.
   *
   * @example
   * await ctx.apply(kinds.Deployment, {
   *   metadata: { name: `${name}-web` },
   *   spec: { replicas, selector, template: site.spec.template },
   * });
   */
  apply<C extends KubeObject, N extends boolean>(kind: Kind<C, N>, child: ApplyObject<C>, options?: ChildApplyOptions): Promise<Stored<C, N>>;
  /**
   * Deletes `child` (named by its metadata) when the reconciled object controls it; a
   * child already gone is fine, an object it does not control is refused
   * (`AlreadyOwnedError`, `NotOwnedError`). Only the object checked is deleted (a uid
   * precondition).
   *
   * @example
   * for (const pod of surplus) await ctx.delete(kinds.Pod, pod);
   */
  delete<C extends KubeObject>(kind: Kind<C>, child: DeepReadonly<KubeObject>, options?: DeleteOptions): Promise<void>;
  /** Writes the reconciled object's status; see {@link StatusWriter}. */
  readonly status: StatusWriter<T, Namespaced>;
  /**
   * Runs `handlers.apply` under the finalizer `name`, as kube-rs's `finalizer()`: adds the
   * finalizer before `apply` runs, calls `cleanup` once the object is being deleted, and
   * removes the finalizer after `cleanup` succeeds. Finalizer writes are conditional on
   * the object's resourceVersion (re-read and retried on a conflict), so another owner's
   * finalizer is never lost. A `cleanup` that succeeded runs once in this process: when
   * removing the finalizer then fails (other writers, an outage), the next reconcile only
   * removes it, and no reconcile sees the object once its finalizer is gone. After a
   * restart it may run again: keep it idempotent. Resolves to what the handler returned:
   * return it.
   *
   * @example
   * return ctx.finalize('example.com/bucket', {
   *   apply: () => ensureBucket(site),
   *   cleanup: () => deleteBucket(site),
   * });
   */
  finalize(name: string, handlers: FinalizerHandlers): Promise<Result>;
}

/**
 * The context of a reconcile: `ReconcileContext<PodSet>` is what `.reconcile()` hands a
 * reconcile of PodSets ({@link ObjectContext}); plain `ReconcileContext` is the
 * {@link RequestContext} of the request form.
 *
 * @example
 * async function scale(podSet: Reconciled<PodSet>, ctx: ReconcileContext<PodSet>) {
 *   // …
 * }
 */
export type ReconcileContext<T extends KubeObject = never, Namespaced extends boolean = boolean> = [T] extends [never]
  ? RequestContext
  : ObjectContext<T, Namespaced>;

/**
 * The request-form reconcile, for `.reconcileRequest()`: it gets only the namespace and
 * name, reads what it needs, and is also called after its object is gone. Throw to retry
 * with backoff; throw a `TerminalError` to give up.
 *
 * @example
 * const reconcileWidget: Reconciler = async (req, ctx) => {
 *   const widget = await ctx.client.get(Widget, req.name, req.namespace);
 *   if (!widget) return forget(req);
 * };
 */
export type Reconciler = (request: Request, context: RequestContext) => Promise<Result> | Result;

/**
 * The object-first reconcile, for `.reconcile()`: it gets the cached object, and is not
 * called once the object is gone. Throw to retry (see `onError`); throw a
 * `TerminalError` to give up.
 *
 * @example
 * const reconcileWidget: ObjectReconciler<Widget, true> = async (widget, ctx) => {
 *   await ctx.status.apply({ observedSize: widget.spec.size });
 * };
 */
export type ObjectReconciler<T extends KubeObject, Namespaced extends boolean = boolean> = (
  object: Reconciled<T, Namespaced> & LegacyRequestFields,
  context: ObjectContext<T, Namespaced>,
) => Promise<Result> | Result;

/**
 * A controller's error policy, kube-rs's `error_policy`: what follows a reconcile that
 * threw (not terminally). Return an {@link Action}, or nothing to wait for the next change.
 *
 * @example
 * const policy: ErrorPolicy<Widget> = (error) =>
 *   isForbidden(error) ? requeue.after('10m') : requeue.now();
 */
export type ErrorPolicy<T extends KubeObject, Namespaced extends boolean = boolean> = (error: unknown, object: Reconciled<T, Namespaced>) => Action | undefined;

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
  /**
   * After a {@link Controller.warmup}: real changes queued during it that were seen at or
   * after this time (the host's `clock.now()`) are reconciled first; earlier ones, which the
   * previous leader had time to serve, wait with the backlog. Default: all of them first.
   */
  changesSince?: number;
}

/** A running unit of a manager, e.g. a controller. */
export interface Controller {
  readonly name: string;
  /**
   * Starts what feeds the controller's queue (handlers on the cache, event sources) before
   * this process leads, controller-runtime's warm replicas: a standby's queue then holds
   * every object at low priority, so after a failover `run` starts at once, without
   * replaying the cache, and serves first the changes the previous leader may have missed
   * (see {@link ControllerRunOptions.changesSince}). Stops when `signal` aborts, unless
   * `run` took over. Optional: `run` starts the same when it was not called.
   */
  warmup?(signal: AbortSignal): void;
  /**
   * Watches, waits for the cache, and reconciles until `signal` aborts; then stops taking
   * work and resolves once in-flight reconciles have finished.
   */
  run(signal: AbortSignal, options?: ControllerRunOptions): Promise<void>;
}

/**
 * The shard side of sharding (`ManagerOptions.sharding`), asked right before each
 * reconcile of a sharded kind whether this replica still holds the object.
 */
export interface ShardGate {
  /**
   * Called by each controller before it asks for informers: the first controller's `for`
   * and owned kinds become the ring's kinds when the sharding options name none. Throws
   * when `forKind` is not sharded: every replica would reconcile all of its objects.
   */
  claim(forKind: Kind, owned: readonly Kind[]): void;
  /** Whether `event` asks this shard to hand the object over: it passes every predicate. */
  handsOver(event: WatchEvent): boolean;
  /** True: reconcile it; false: skip it (another shard's, gone, or handed over just now). */
  admit(kind: Kind, request: Request): Promise<boolean>;
  /** Called when a reconcile {@link ShardGate.admit} let through has ended, however it ended. */
  release(kind: Kind, request: Request): void;
}

/** What a controller needs from its manager. `createManager` returns one. */
export interface ControllerHost {
  /** Set when the manager shards its objects across replicas. */
  readonly shardGate?: ShardGate;
  /** Set when the manager reconciles a fleet of clusters (`createManager({ clusters })`). */
  readonly fleet?: ControllerFleet;
  /** The `cluster` and `clusters` of every reconcile context this host's controllers make (one cluster of a fleet). */
  readonly reconcileScope?: Pick<RequestContext, 'cluster' | 'clusters'>;
  readonly cache: Cache;
  readonly log: Logger;
  readonly metrics: Metrics;
  /** The shared client, reading from the shared cache; each controller writes as its own field manager. */
  readonly client: Client;
  /** An event recorder reporting as `component`. */
  eventRecorder(component: string): EventRecorder;
  /** Registers `controller` to run while this process leads; names must be unique. */
  addController(controller: Controller): void;
  /**
   * Time of the controllers' queues, requeues and periodic triggers; default real time. A
   * manager on a memory cluster runs on the cluster's fake clock.
   */
  readonly clock?: Clock;
}
