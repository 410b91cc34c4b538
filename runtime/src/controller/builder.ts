import type { Kind } from '../api/kind.js';
import type { Informer } from '../cache/types.js';
import type { KubeObject } from '../object.js';
import { createWorkQueue, type RateLimiter } from '../queue/index.js';
import { enqueueControllerOwner, enqueueMapped, enqueueObject, type EventMapper } from './handlers.js';
import type { Predicate, WatchEvent } from './predicates.js';
import { runReconcileLoop } from './reconcile-loop.js';
import { keyOf, type Request } from './request.js';
import type { Controller, ControllerHost, ReconcileContext, Reconciler } from './types.js';

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
   *   .owns(kinds.Job, { indexes: { owner: (job) => { const owner = controllerOf(job); return owner?.kind === 'CronJob' ? [owner.name] : []; } } })
   *   .reconcile(async (req, ctx) => {
   *     const jobs = await ctx.client.list(kinds.Job, { namespace: req.namespace, index: { owner: req.name } });
   *   });
   */
  indexes?: Record<string, (object: T) => string[]>;
}

/** Declares what a controller watches and how it reconciles; see {@link controller}. */
export interface ControllerBuilder {
  /** The primary kind: each of its events enqueues the object's own namespace/name. */
  for<T extends KubeObject>(kind: Kind<T>, options?: WatchOptions<T>): ControllerBuilder;
  /**
   * A kind this controller creates: events enqueue the object's controller owner of the
   * `for` kind (the owner reference with `controller: true`).
   */
  owns<T extends KubeObject>(kind: Kind<T>, options?: WatchOptions<T>): ControllerBuilder;
  /** Any kind: events enqueue what `map` returns for the object. */
  watches<T extends KubeObject>(kind: Kind<T>, map: (object: T) => Request[], options?: WatchOptions<T>): ControllerBuilder;
  /** Predicates applied to the events of every watched kind. */
  withPredicates(...predicates: Predicate[]): ControllerBuilder;
  /** Completes the controller with its reconcile function and registers it with the manager. */
  reconcile(reconciler: Reconciler): Controller;
}

interface Watch {
  kind: Kind<KubeObject>;
  map?: EventMapper;
  /** `owns` needs the `for` kind, which may be declared after it. */
  owned?: boolean;
  predicates: Predicate[];
  indexes?: Record<string, (object: KubeObject) => string[]>;
}

type Indexes = Watch['indexes'];

/**
 * Starts declaring a controller on `mgr`, controller-runtime's builder in TypeScript:
 *
 * @example
 * controller(mgr)
 *   .for(DemoVolume, { predicates: [generationChanged()] })
 *   .owns(kinds.PersistentVolumeClaim)
 *   .reconcile(async (req, ctx) => {
 *     const volume = await ctx.client.get(DemoVolume, req.name, req.namespace);
 *     ...
 *   });
 */
export function controller(mgr: ControllerHost, options: ControllerOptions = {}): ControllerBuilder {
  let primary: Watch | undefined;
  const secondary: Watch[] = [];
  const global: Predicate[] = [];

  const builder: ControllerBuilder = {
    for(kind, watchOptions) {
      if (primary) throw new Error(`controller: .for() was already called with ${primary.kind.kind}`);
      primary = { kind: kind as Kind<KubeObject>, map: enqueueObject(), predicates: [...((watchOptions?.predicates ?? []) as Predicate[])], indexes: watchOptions?.indexes as Indexes };
      return builder;
    },
    owns(kind, watchOptions) {
      secondary.push({ kind: kind as Kind<KubeObject>, owned: true, predicates: [...((watchOptions?.predicates ?? []) as Predicate[])], indexes: watchOptions?.indexes as Indexes });
      return builder;
    },
    watches(kind, map, watchOptions) {
      secondary.push({
        kind: kind as Kind<KubeObject>,
        map: enqueueMapped(map as (object: KubeObject) => Request[]),
        predicates: [...((watchOptions?.predicates ?? []) as Predicate[])],
        indexes: watchOptions?.indexes as Indexes,
      });
      return builder;
    },
    withPredicates(...predicates) {
      global.push(...predicates);
      return builder;
    },
    reconcile(reconciler) {
      if (!primary) throw new Error('controller: call .for(kind) before .reconcile()');
      const forKind = primary.kind;
      const watches = [primary, ...secondary].map((w) => ({
        kind: w.kind,
        map: w.owned ? enqueueControllerOwner(forKind) : w.map!,
        predicates: [...w.predicates, ...global],
      }));
      for (const w of [primary, ...secondary]) {
        for (const [name, fn] of Object.entries(w.indexes ?? {})) mgr.cache.informerFor(w.kind).addIndex(name, fn);
      }
      const built = buildController(mgr, forKind, watches, reconciler, options);
      mgr.addController(built);
      return built;
    },
  };
  return builder;
}

interface ResolvedWatch {
  kind: Kind<KubeObject>;
  map: EventMapper;
  predicates: Predicate[];
}

function buildController(
  mgr: ControllerHost,
  forKind: Kind<KubeObject>,
  watches: ResolvedWatch[],
  reconciler: Reconciler,
  options: ControllerOptions,
): Controller {
  const name = options.name ?? forKind.kind.toLowerCase();
  const workers = options.maxConcurrentReconciles ?? 1;
  const log = mgr.log.child({ controller: name, controllerGroup: forKind.group, controllerKind: forKind.kind });
  const client = mgr.client.withFieldManager(name);
  const recorder = mgr.eventRecorder(name);
  // Asking for the informers now lets the cache list them while this process waits to lead.
  const informers = watches.map((w) => mgr.cache.informerFor(w.kind) as Informer<KubeObject>);

  return {
    name,
    async run(signal, runOptions = {}) {
      const { cancel, fence } = runOptions;
      const precondition = fence && (() => {
        if (!fence()) throw new Error('not the leader any more');
      });
      const metrics = mgr.metrics.controllers.forController(name, workers);
      const queue = createWorkQueue({
        rateLimiter: options.rateLimiter,
        metrics: mgr.metrics.workQueues.forQueue(name, () => queue.inFlight()),
      });
      const stop = (): void => queue.shutDown();
      if (signal.aborted) stop();
      else signal.addEventListener('abort', stop, { once: true });

      const enqueue = (watch: ResolvedWatch) => (event: WatchEvent) => {
        if (!watch.predicates.every((p) => p(event))) return;
        for (const request of watch.map(event)) queue.add(keyOf(request));
      };
      const unsubscribe = watches.map((watch, i) => {
        const handle = enqueue(watch);
        return informers[i]!.addHandler({
          add: (object) => handle({ type: 'create', object }),
          update: (oldObject, object) => handle({ type: 'update', object, oldObject }),
          delete: (object) => handle({ type: 'delete', object }),
        });
      });

      try {
        log.info({ sources: watches.map((w) => w.kind.kind) }, 'Starting Controller');
        const synced = await waitForSync(informers, options.cacheSyncTimeoutMs ?? 120_000, signal);
        if (signal.aborted) return;
        if (!synced) throw new Error(`controller ${name}: timed out waiting for cache to be synced`);
        log.info({ workerCount: workers }, 'Starting workers');
        await runReconcileLoop<ReconcileContext>({
          queue,
          reconcile: reconciler,
          context: (_request, reconcileId, reconcileLog, signals) => ({
            client: signals.callSignal ? client.withSignal(signals.callSignal, { precondition }) : client,
            log: reconcileLog,
            recorder,
            signal: signals.signal,
            reconcileId,
          }),
          stop: signal,
          cancel,
          fence,
          reconcileTimeoutMs: options.reconcileTimeoutMs,
          log,
          metrics,
          workers,
        });
        log.info('All workers finished');
      } finally {
        signal.removeEventListener('abort', stop);
        queue.shutDown();
        for (const off of unsubscribe) off();
      }
    },
  };
}

/** Whether all `informers` listed within `timeoutMs`; false at once when `signal` aborts. */
async function waitForSync(informers: Informer<KubeObject>[], timeoutMs: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return false;
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<boolean>((resolve) => {
    onAbort = () => resolve(false);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    const all = Promise.all(informers.map((i) => i.waitForSync(timeoutMs))).then((synced) => synced.every(Boolean));
    return await Promise.race([all, aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort!);
  }
}
