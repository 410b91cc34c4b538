import { randomUUID } from 'node:crypto';
import type { Kind } from '../api/kind.js';
import type { Cached, Informer } from '../cache/types.js';
import type { KubeObject, Stored } from '../object.js';
import type { Logger } from '../log/index.js';
import { createWorkQueue, type Priority, type RateLimiter, type WorkQueue } from '../queue/index.js';
import { enqueueControllerOwner, enqueueMapped, enqueueObject, type EventMapper } from './handlers.js';
import type { Predicate, WatchEvent } from './predicates.js';
import { objectContext } from './object-context.js';
import { runReconcileLoop, type ReconcileLoopOptions } from './reconcile-loop.js';
import { keyOf, type Request } from './request.js';
import { consume, every, periodMs, requestOfItem, type EventSource } from './sources.js';
import { systemClock, type Clock } from '../time/clock.js';
import { singlePass, type SinglePassController } from './once.js';
import type { Controller, ControllerHost, ErrorPolicy, ObjectReconciler, Reconciled, Reconciler, RequestContext } from './types.js';
import { recordingReconciles, type ReconcileTrigger } from '../observe/reconcile-records.js';
import { createTriggerBook } from './triggers.js';

/** Options of {@link controller}. */
export interface ControllerOptions {
  /** Unique name: metrics label, log field, field manager. Default: the `for` kind in lower case. */
  name?: string;
  /** Keys reconciled at the same time; default 1. One key is never reconciled twice at once. */
  maxConcurrentReconciles?: number;
  /** How long to wait for the cache to list before giving up on start; default 120 000 ms. */
  cacheSyncTimeoutMs?: number;
  /** Backoff of failing keys; default exponential 5 ms → 1000 s per key. */
  rateLimiter?: RateLimiter;
  /**
   * A reconcile still running after this long has its signal and its client calls
   * aborted, and is retried with backoff; default none, as in controller-runtime.
   */
  reconcileTimeoutMs?: number;
}

/** Options of one watched kind. */
export interface WatchOptions<T extends KubeObject> {
  /** Events of this kind that fail any predicate enqueue nothing. */
  predicates?: Predicate<T>[];
  /**
   * Cache indexes of this kind, controller-runtime's `IndexField`: each function returns
   * the values an object is filed under; `client.list(kind, { index: { name: value } })`
   * then finds the objects filed under `value` without scanning the whole cache. Names are
   * per kind and registered once per process.
   *
   * @example
   * // The kubebuilder book's CronJob controller finds its Jobs by their controller owner.
   * controller(mgr)
   *   .for(CronJob)
   *   .owns(kinds.Job, {
   *     indexes: {
   *       owner: (job) => {
   *         const owner = controllerOf(job);
   *         return owner?.kind === 'CronJob' ? [owner.name] : [];
   *       },
   *     },
   *   })
   *   .reconcile(async (req, ctx) => {
   *     const jobs = await ctx.client.list(kinds.Job, {
   *       namespace: req.namespace,
   *       index: { owner: req.name },
   *     });
   *   });
   */
  indexes?: Record<string, (object: Cached<T>) => string[]>;
}

/**
 * Declares what a controller watches and how it reconciles; see {@link controller}.
 * `T` is the `for` kind's object type once `.for()` is called.
 */
export interface ControllerBuilder<T extends KubeObject = KubeObject, Namespaced extends boolean = boolean> {
  /** The primary kind: each of its events enqueues the object's own namespace/name. */
  for<U extends KubeObject, N extends boolean>(kind: Kind<U, N>, options?: WatchOptions<U>): ControllerBuilder<U, N>;
  /**
   * A kind this controller creates: events enqueue the object's controller owner of the
   * `for` kind (the owner reference with `controller: true`).
   */
  owns<C extends KubeObject>(kind: Kind<C>, options?: WatchOptions<C>): ControllerBuilder<T, Namespaced>;
  /** Any kind: events enqueue what `map` returns for the object. */
  watches<C extends KubeObject, N extends boolean>(kind: Kind<C, N>, map: (object: Reconciled<C, N>) => Request[], options?: WatchOptions<C>): ControllerBuilder<T, Namespaced>;
  /**
   * An external event source, kube-rs's `reconcile_on`, controller-runtime's
   * `source.Channel`: an async iterable (an async generator, a {@link channel}) of
   * requests or objects, each enqueued as a real change. It is read from the manager's
   * start, on a standby replica too (what arrives before it leads is reconciled once it
   * does), and told to return when the controller stops; a source that throws is logged
   * and enqueues nothing more.
   *
   * @example
   * const pushes = channel<Request>();
   * controller(mgr).for(Site).watches(pushes).reconcile(deploySite);
   * gitWebhook.on('push', (repo) => pushes.send({ namespace: 'sites', name: repo }));
   */
  watches(source: EventSource): ControllerBuilder<T, Namespaced>;
  /**
   * Reconciles every cached object of the `for` kind each time `trigger` yields, kube-rs's
   * `reconcile_all_on`; at low priority, so real changes go first.
   *
   * @example
   * controller(mgr).for(Site).reconcileAllOn(vaultRotations()).reconcile(deploySite);
   */
  reconcileAllOn(trigger: AsyncIterable<unknown>): ControllerBuilder<T, Namespaced>;
  /**
   * Reconciles every cached object of the `for` kind once per `period` (a Go duration
   * string such as `'10m'`, or milliseconds), at low priority behind real changes: for
   * state outside Kubernetes that sends no events. The first round comes one period
   * after the start.
   *
   * @example
   * controller(mgr).for(DnsRecord).reconcileAllEvery('10m').reconcile(syncRecord);
   */
  reconcileAllEvery(period: string | number): ControllerBuilder<T, Namespaced>;
  /** Predicates applied to the events of every watched kind. */
  withPredicates(...predicates: Predicate[]): ControllerBuilder<T, Namespaced>;
  /**
   * What follows a reconcile that threw (a `TerminalError` is never retried): kube-rs's
   * `error_policy`. Default: retry after the key's backoff, 5 ms doubling to 1000 s.
   *
   * @example
   * .onError((err, podSet) => (isForbidden(err) ? requeue.after('10m') : requeue.now()))
   */
  onError(policy: ErrorPolicy<T, Namespaced>): ControllerBuilder<T, Namespaced>;
  /**
   * Completes the controller with its object-first reconcile and registers it with the
   * manager. The reconcile gets the object as the cache holds it (read-only, its identity
   * present) and a context whose writes own their children; it is not called once the
   * object is gone (owned children go with it through the garbage collector; use
   * `ctx.finalize` for anything else). Return nothing when done, `requeue.after(…)` to
   * look again later; throw to retry.
   *
   * A reconcile written in the request form, `(req, ctx) => { const x = await
   * ctx.client.get(Kind, req.name, req.namespace); if (!x) return; … }`, still compiles and
   * runs (the object carries `name` and `namespace`, deprecated), with one change: it is no
   * longer called once the object is gone. Move work done then to `.reconcileRequest()`.
   *
   * @example
   * controller(mgr)
   *   .for(PodSet)
   *   .owns(kinds.Pod)
   *   .reconcile(async (podSet, ctx) => {
   *     const pods = await ctx.client.list(kinds.Pod, { namespace: podSet.metadata.namespace });
   *     await ctx.status.apply({ readyReplicas: pods.length });
   *     return requeue.after('5m');
   *   });
   */
  reconcile(reconciler: ObjectReconciler<T, Namespaced>): Controller;
  /**
   * Completes the controller with a request-form reconcile, controller-runtime's
   * `Reconciler`: it gets only the namespace and name, reads what it needs, and is also
   * called after the object is gone. The low-level alternative to {@link reconcile}.
   *
   * @example
   * controller(mgr).for(PodSet).reconcileRequest(async (req, ctx) => {
   *   const podSet = await ctx.client.get(PodSet, req.name, req.namespace);
   *   if (!podSet) return forgetPodSet(req);
   * });
   */
  reconcileRequest(reconciler: Reconciler): Controller;
}

interface Watch {
  kind: Kind<KubeObject>;
  map?: EventMapper;
  /** `owns` needs the `for` kind, which may be declared after it. */
  owned?: boolean;
  predicates: Predicate[];
  indexes?: Record<string, (object: Cached<KubeObject>) => string[]>;
}

type Indexes = Watch['indexes'];

/** A source of requests besides the watched kinds, read from the controller's warm-up until it stops. */
interface ExternalSource {
  name: string;
  /** Reads the source, enqueueing through `add`, until `signal` aborts or it ends. */
  run(add: (request: Request, priority: Priority, trigger: ReconcileTrigger) => void, signal: AbortSignal, log: Logger, forInformer: Informer<KubeObject>, clock: Clock): Promise<void>;
}

function watchedSource(source: EventSource): ExternalSource {
  return {
    name: 'watches',
    run: (add, signal, log) =>
      consume(
        source,
        (item) => {
          const request = requestOfItem(item);
          if (request) add(request, 'normal', { type: 'source', source: 'watches' });
          else log.error({ item }, 'Source yielded neither a request nor a named object: ignored');
        },
        signal,
        log,
        'watches',
      ),
  };
}

function reconcileAllSource(name: string, trigger: (signal: AbortSignal, clock: Clock) => AsyncIterable<unknown>): ExternalSource {
  return {
    name,
    run: (add, signal, log, forInformer, clock) =>
      consume(
        trigger(signal, clock),
        () => {
          for (const object of forInformer.list()) add({ name: object.metadata.name, ...(object.metadata.namespace ? { namespace: object.metadata.namespace } : {}) }, 'low', { type: 'resync' });
        },
        signal,
        log,
        name,
      ),
  };
}

/**
 * Starts declaring a controller on `mgr`, controller-runtime's builder in TypeScript:
 *
 * @example
 * controller(mgr)
 *   .for(DemoVolume, { predicates: [generationChanged()] })
 *   .owns(kinds.PersistentVolumeClaim)
 *   .reconcile(async (volume, ctx) => {
 *     await ctx.apply(kinds.PersistentVolumeClaim, {
 *       metadata: { name: volume.metadata.name },
 *       spec,
 *     });
 *     await ctx.status.setCondition({
 *       type: 'Ready',
 *       status: 'True',
 *       reason: 'Bound',
 *       message: '',
 *     });
 *   });
 */
export function controller(mgr: ControllerHost, options: ControllerOptions = {}): ControllerBuilder {
  let primary: Watch | undefined;
  const secondary: Watch[] = [];
  const global: Predicate[] = [];
  const external: ExternalSource[] = [];
  let errorPolicy: ErrorPolicy<KubeObject> | undefined;

  /** Builds and registers the controller; `reconcile` gets the `for` kind. */
  const complete = (reconcile: (forKind: Kind<KubeObject>) => LoopReconcile, onError?: LoopOptions['onError']): Controller => {
    if (!primary) throw new Error('controller: call .for(kind) before .reconcile()');
    // One source feeding every cluster's copy would hand each request to one copy at random.
    const shared = external.find((source) => source.name !== 'reconcileAllEvery');
    if (mgr.fleet && shared) throw new Error(`controller: .${shared.name}() names no cluster, and a manager with a cluster provider reconciles many: use .reconcileAllEvery() or a watched kind`);
    const forKind = primary.kind;
    // Before any informer exists: a sharded kind's informer must select this shard's label.
    mgr.shardGate?.claim(forKind, secondary.filter((w) => w.owned).map((w) => w.kind));
    const gate = mgr.shardGate;
    const watches = [primary, ...secondary].map((w) => {
      const predicates = [...w.predicates, ...global];
      // A drain request must reach the worker whatever the user's predicates say.
      const handover: Predicate = (event) => gate!.handsOver(event) || predicates.every((p) => p(event));
      return { kind: w.kind, map: w.owned ? enqueueControllerOwner(forKind) : w.map!, predicates: gate && w === primary ? [handover] : predicates };
    });
    const inner = reconcile(forKind);
    const gated: LoopReconcile = gate
      ? async (request, holder) => {
          if (!(await gate.admit(forKind, request))) return undefined;
          try {
            return await inner(request, holder);
          } finally {
            gate.release(forKind, request);
          }
        }
      : inner;
    const build = (host: ControllerHost, buildOptions: ControllerOptions): Controller => {
      for (const w of [primary!, ...secondary]) {
        for (const [name, fn] of Object.entries(w.indexes ?? {})) host.cache.informerFor(w.kind).addIndex(name, fn);
      }
      return buildController(host, forKind, watches, external, gated, onError, buildOptions);
    };
    // A fleet runs one copy per cluster; it waits for a cluster as long as it is engaged,
    // since a cluster that is down must not fail the manager.
    const built = mgr.fleet
      ? mgr.fleet.controller(options.name ?? forKind.kind.toLowerCase(), (host) => build(host, { ...options, cacheSyncTimeoutMs: options.cacheSyncTimeoutMs ?? MAX_TIMER_MS }))
      : build(mgr, options);
    mgr.addController(built);
    return built;
  };

  const builder: ControllerBuilder = {
    for(kind, watchOptions) {
      if (primary) throw new Error(`controller: .for() was already called with ${primary.kind.kind}`);
      primary = { kind: kind as Kind<KubeObject>, map: enqueueObject(), predicates: [...((watchOptions?.predicates ?? []) as Predicate[])], indexes: watchOptions?.indexes as Indexes };
      return builder as never;
    },
    owns(kind, watchOptions) {
      secondary.push({ kind: kind as Kind<KubeObject>, owned: true, predicates: [...((watchOptions?.predicates ?? []) as Predicate[])], indexes: watchOptions?.indexes as Indexes });
      return builder;
    },
    watches(kindOrSource: Kind<KubeObject> | EventSource, map?: (object: never) => Request[], watchOptions?: WatchOptions<KubeObject>) {
      if (isEventSource(kindOrSource)) {
        external.push(watchedSource(kindOrSource));
        return builder;
      }
      const kind = kindOrSource;
      if (!map) throw new Error(`controller: .watches(${kind.kind}) needs a map function from the object to the requests it enqueues`);
      secondary.push({
        kind: kind as Kind<KubeObject>,
        map: enqueueMapped(map as never),
        predicates: [...((watchOptions?.predicates ?? []) as Predicate[])],
        indexes: watchOptions?.indexes as Indexes,
      });
      return builder;
    },
    reconcileAllOn(trigger) {
      external.push(reconcileAllSource('reconcileAllOn', () => trigger));
      return builder;
    },
    reconcileAllEvery(period) {
      const ms = periodMs(period, 'controller: .reconcileAllEvery()');
      external.push(reconcileAllSource('reconcileAllEvery', (signal, clock) => every(ms, signal, clock)));
      return builder;
    },
    withPredicates(...predicates) {
      global.push(...predicates);
      return builder;
    },
    onError(policy) {
      errorPolicy = policy;
      return builder;
    },
    reconcile(reconciler) {
      const policy = errorPolicy;
      // Conditions are stamped on the manager's clock: the memory cluster's time in tests.
      const wall = (): Date => (mgr.clock ?? systemClock).wall();
      return complete(
        (forKind) => async (request, holder) => {
          const object = await holder.base.client.get(forKind, request.name, request.namespace);
          if (!object) return; // gone: what it owned goes with it
          const stored = withRequestFields(object, request);
          holder.object = stored;
          return reconciler(stored as never, objectContext(holder.base, forKind, stored, wall) as never);
        },
        policy && ((error, _request, holder) => (holder.object ? policy(error, holder.object as never) : { requeue: true })),
      );
    },
    reconcileRequest(reconciler) {
      if (errorPolicy) throw new Error('controller: .onError() needs the object-first .reconcile(); .reconcileRequest() retries with backoff');
      return complete(() => (request, holder) => reconciler(request, holder.base));
    },
  };
  return builder;
}

/**
 * `object` with the request's `name` and `namespace` as non-enumerable properties, so that
 * reconciles written in the request form keep working; copies and JSON leave them out.
 */
function withRequestFields(object: Stored<KubeObject>, request: Request): Stored<KubeObject> {
  Object.defineProperty(object, 'name', { value: request.name, enumerable: false });
  Object.defineProperty(object, 'namespace', { value: request.namespace, enumerable: false });
  return object;
}

/** What one reconcile carries through the loop: its context, and its object once read. */
interface Holder {
  base: RequestContext;
  object?: Stored<KubeObject>;
}

type LoopOptions = ReconcileLoopOptions<Holder>;
type LoopReconcile = LoopOptions['reconcile'];

interface ResolvedWatch {
  kind: Kind<KubeObject>;
  map: EventMapper;
  predicates: Predicate[];
}

function buildController(
  mgr: ControllerHost,
  forKind: Kind<KubeObject>,
  watches: ResolvedWatch[],
  external: ExternalSource[],
  reconcile: LoopReconcile,
  onError: LoopOptions['onError'],
  options: ControllerOptions,
): Controller {
  const name = options.name ?? forKind.kind.toLowerCase();
  const workers = options.maxConcurrentReconciles ?? 1;
  const log = mgr.log.child({ controller: name, controllerGroup: forKind.group, controllerKind: forKind.kind });
  const client = mgr.client.withFieldManager(name);
  const local = { name: '', client, cache: mgr.cache };
  const recorder = mgr.eventRecorder(name);
  // Asking for the informers now lets the cache list them while this process waits to lead.
  const informers = watches.map((w) => mgr.cache.informerFor(w.kind) as Informer<KubeObject>);
  const clock = mgr.clock ?? systemClock;
  const triggers = createTriggerBook();

  /** Real changes queued before the controller ran, with when each was last seen; undefined once it runs. */
  let warm: Map<string, number> | undefined;
  /** The queue and what feeds it, opened once: at warm-up, or when the controller runs. */
  let fed: { queue: WorkQueue; close(): void } | undefined;
  const open = (): { queue: WorkQueue; close(): void } => {
    if (fed) return fed;
    const queue = createWorkQueue({
      name,
      clock,
      rateLimiter: options.rateLimiter,
      metrics: mgr.metrics.workQueues.forQueue(name, () => queue.inFlight()),
    });
    const add = (request: Request, priority: Priority, trigger?: ReconcileTrigger): void => {
      const key = keyOf(request);
      if (trigger) triggers.note(key, trigger);
      if (warm && priority === 'normal') {
        // Not running yet: most likely a change the leader serves. Queued with the backlog,
        // and moved up at the start if it came too late for the leader to have served it.
        warm.delete(key);
        warm.set(key, clock.now());
        queue.add(key, 'low');
      } else queue.add(key, priority);
    };
    const enqueue = (watch: ResolvedWatch) => (event: WatchEvent) => {
      if (!watch.predicates.every((p) => p(event))) return;
      const priority = backlog(event) ? 'low' : 'normal';
      // The cause is worth building only for someone listening (see observe/reconcile-records).
      const trigger = recordingReconciles() ? triggerOf(watch.kind, event) : undefined;
      for (const request of watch.map(event)) add(request, priority, trigger);
    };
    const unsubscribe = watches.map((watch, i) => {
      const handle = enqueue(watch);
      return informers[i]!.addHandler({
        add: (object, initialList) => handle({ type: 'create', object, initialList }),
        update: (oldObject, object) => handle({ type: 'update', object, oldObject }),
        delete: (object) => handle({ type: 'delete', object }),
      });
    });
    const sourcesStop = new AbortController();
    for (const source of external) void source.run(add, sourcesStop.signal, log, informers[0]!, clock);
    log.info({ sources: [...watches.map((w) => w.kind.kind), ...external.map((s) => s.name)] }, 'Starting EventSources');
    fed = {
      queue,
      close() {
        if (sourcesStop.signal.aborted) return;
        sourcesStop.abort();
        queue.shutDown();
        for (const off of unsubscribe) off();
      },
    };
    return fed;
  };

  const holderFor = (reconcileId: string, reconcileLog: Logger, signal: AbortSignal, callSignal: AbortSignal | undefined, precondition?: () => void): Holder => ({
    base: {
      client: callSignal ? client.withSignal(callSignal, { precondition }) : client,
      log: reconcileLog,
      recorder,
      signal,
      reconcileId,
      ...(mgr.reconcileScope ?? { cluster: local }),
    },
  });
  let running = false;

  const built: SinglePassController = {
    async [singlePass](request, signal) {
      if (running) throw new Error(`reconcileOnce: controller ${name} is running in its manager, whose workers reconcile too: drive it with runUntilIdle(), or do not start the manager`);
      const reconcileId = randomUUID();
      const reconcileLog = log.child(request.namespace ? { namespace: request.namespace, name: request.name } : { name: request.name });
      return reconcile(request, holderFor(reconcileId, reconcileLog, signal ?? new AbortController().signal, signal));
    },
    name,
    warmup(signal) {
      if (signal.aborted || fed) return;
      warm = new Map();
      const { close } = open();
      signal.addEventListener('abort', close, { once: true });
    },
    async run(signal, runOptions = {}) {
      running = true;
      const { cancel, fence } = runOptions;
      const precondition = fence && (() => {
        if (!fence()) throw new Error('not the leader any more');
      });
      const metrics = mgr.metrics.controllers.forController(name, workers);
      const { queue, close } = open();
      for (const [key, seenAt] of warm ?? []) if (runOptions.changesSince === undefined || seenAt >= runOptions.changesSince) queue.add(key, 'normal');
      warm = undefined;
      if (signal.aborted) close();
      else signal.addEventListener('abort', close, { once: true });

      try {
        log.info({ sources: watches.map((w) => w.kind.kind) }, 'Starting Controller');
        const synced = await waitForSync(informers, options.cacheSyncTimeoutMs ?? 120_000, signal);
        if (signal.aborted) return;
        if (!synced) throw new Error(`controller ${name}: timed out waiting for cache to be synced`);
        log.info({ workerCount: workers, queued: queue.len() }, 'Starting workers');
        await runReconcileLoop<Holder>({
          queue,
          reconcile,
          onError,
          context: (_request, reconcileId, reconcileLog, signals) => holderFor(reconcileId, reconcileLog, signals.signal, signals.callSignal, precondition),
          stop: signal,
          cancel,
          fence,
          reconcileTimeoutMs: options.reconcileTimeoutMs,
          records: { controller: name, kind: forKind, triggers },
          clock,
          log,
          metrics,
          workers,
        });
        log.info('All workers finished');
      } finally {
        signal.removeEventListener('abort', close);
        close();
      }
    },
  };
  return built;
}

/** The longest timer Node keeps (about 24.8 days): "as long as it takes". */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Whether all `informers` listed within `timeoutMs`; false at once when `signal` aborts. */
async function waitForSync(informers: Informer<KubeObject>[], timeoutMs: number, signal: AbortSignal): Promise<boolean> {
  const synced = await Promise.all(informers.map((i) => i.waitForSync(timeoutMs, signal)));
  return !signal.aborted && synced.every(Boolean);
}

function isEventSource(value: Kind<KubeObject> | EventSource): value is EventSource {
  return typeof (value as Partial<EventSource>)[Symbol.asyncIterator] === 'function';
}

/** The trigger a watch event of `kind` stands for. */
function triggerOf(kind: Kind, event: WatchEvent): ReconcileTrigger {
  const { name = '', namespace } = event.object.metadata ?? {};
  return { type: 'watch', event: event.type, kind: kind.kind, ...(namespace ? { namespace } : {}), name };
}

/**
 * Events nobody is waiting on, queued behind real changes (controller-runtime's priority
 * queue): objects of the initial list, and resyncs (an update that changed nothing).
 */
function backlog(event: WatchEvent): boolean {
  if (event.type === 'create') return event.initialList === true;
  return event.type === 'update' && event.oldObject?.metadata?.resourceVersion === event.object.metadata?.resourceVersion;
}
