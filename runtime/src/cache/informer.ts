import { apiVersionOf, type Kind } from '../api/kind.js';
import type { LoggerLike } from '../rest/logger.js';
import { kindLabel } from '../rest/paths.js';
import type { Transport } from '../rest/transport.js';
import { objectKey, readOnly, type KubeObject } from '../object.js';
import type { BackoffOptions } from './backoff.js';
import { createCompactor } from './compact.js';
import { createReflector } from './reflector.js';
import { createStore } from './store.js';
import type { EventHandler, Informer, InformerHealth, KindCacheOptions } from './types.js';
import { runWatcher, type WatcherOptions, type WatcherOutput } from './watcher.js';
import { everyOn, systemClock, type Clock } from '../time/clock.js';

export interface InformerOptions<T extends KubeObject> extends KindCacheOptions<T> {
  /** Watch namespaced kinds in this namespace only. */
  namespace?: string;
  logger: LoggerLike;
  backoff?: BackoffOptions;
  /** Time of the resyncs; default real time. */
  clock?: Clock;
  /** See {@link WatcherOptions.lists}. */
  lists?: WatcherOptions['lists'];
}

/** An informer the cache can start; see {@link Informer} for what users see. */
export interface RunnableInformer<T extends KubeObject> extends Informer<T> {
  /** Lists and watches until `signal` aborts. Starting twice is a no-op. */
  start(signal: AbortSignal): void;
}

/**
 * One kind's informer, kube-rs's shape: a watcher (list+watch, retries, resourceVersion;
 * see `runWatcher`) feeds a reflector (store updates and handler events; see
 * `createReflector`), and this ties them to health, logs and sync.
 */
export function createInformer<T extends KubeObject>(transport: Transport, kind: Kind<T>, options: InformerOptions<T>): RunnableInformer<T> {
  const label = kindLabel(kind);
  const namespace = kind.namespaced ? options.namespace : undefined;
  const logger = options.logger;
  const store = createStore<T>();
  const handlers = new Set<EventHandler<T>>();
  let synced = false;
  let markSynced!: () => void;
  const syncedPromise = new Promise<void>((resolve) => (markSynced = resolve));
  let started = false;
  const health = { lastContact: undefined as Date | undefined, consecutiveFailures: 0, lastError: undefined as string | undefined, listing: undefined as number | undefined };

  function call(handler: EventHandler<T>, deliver: (handler: EventHandler<T>) => void): void {
    try {
      deliver(handler);
    } catch (error) {
      logger.error({ kind: label, err: error }, 'informer event handler threw');
    }
  }

  function emit(deliver: (handler: EventHandler<T>) => void): void {
    for (const handler of handlers) call(handler, deliver);
  }

  /** The server answered something; a failing watch stays failing until it opens again. */
  function contact(): void {
    health.lastContact = new Date();
  }

  const apiVersion = apiVersionOf(kind);

  const compact = createCompactor({ share: options.metadataOnly === true });

  /**
   * Strips what the cache never needs, runs the user's transform, then compacts (see
   * `createCompactor`); the object is freshly parsed, so no copy.
   */
  function prepare(object: T): T {
    // Assigning keeps V8's fast object layout, where `delete` would turn the object into
    // a slower, larger dictionary; managedFields are often half an object's size.
    if (object.metadata?.managedFields) object.metadata.managedFields = undefined;
    if (options.metadataOnly) {
      object.apiVersion = apiVersion;
      object.kind = kind.kind;
    }
    return compact(options.transform ? options.transform(object) : object);
  }

  const reflector = createReflector(store, prepare, emit);

  /** Feeds the watcher's output to the reflector; the first list completes the sync. */
  function output(out: WatcherOutput<T>): void {
    const complete = out.type === 'listed' || out.type === 'streamEnded';
    if (complete) health.listing = undefined;
    const diff = reflector.apply(out);
    if (!complete || !diff) return;
    if (synced) {
      logger.info(
        { kind: label, added: diff.added.length, updated: diff.updated.length, deleted: diff.deleted.length, unchanged: diff.unchanged, resourceVersion: out.resourceVersion },
        'informer relisted',
      );
    } else {
      synced = true;
      markSynced();
      logger.debug({ kind: label, objects: store.size, resourceVersion: out.resourceVersion }, 'informer synced');
    }
  }

  function run(signal: AbortSignal): Promise<void> {
    const sink = {
      output,
      contact,
      opened,
      failed(error: Error) {
        health.consecutiveFailures++;
        health.lastError = error.message;
      },
      listing(objects: number) {
        health.listing = objects;
        contact();
      },
    };
    return (async () => {
      // One watcher per selection: reselect() ends it, and the next one lists afresh.
      while (!signal.aborted) {
        const round = new AbortController();
        reselectRound = () => round.abort();
        const chosen = options.selection?.() ?? {};
        const labelSelector = [options.labelSelector, chosen.labelSelector].filter(Boolean).join(',') || undefined;
        const watcherOptions = { namespace, logger, backoff: options.backoff, labelSelector, fieldSelector: options.fieldSelector, shardSelector: chosen.shardSelector, metadataOnly: options.metadataOnly, lists: options.lists };
        await runWatcher(transport, kind, watcherOptions, sink, AbortSignal.any([signal, round.signal])).catch((error: unknown) => {
          if (!round.signal.aborted || signal.aborted) throw error;
        });
      }
    })();
  }
  /** Ends the current watcher so that the next one lists with the selection of now. */
  let reselectRound = (): void => {};

  /** Re-delivers every cached object as an unchanged update each `periodMs`, until `signal` aborts. */
  function resync(periodMs: number, signal: AbortSignal): void {
    everyOn(
      options.clock ?? systemClock,
      periodMs,
      () => {
        if (!synced) return;
        for (const object of store.values()) emit((h) => h.update?.(readOnly(object), readOnly(object)));
      },
      signal,
    );
  }

  /** The server accepted a watch: the informer is connected again. */
  function opened(): void {
    health.lastContact = new Date();
    health.consecutiveFailures = 0;
  }

  return {
    kind,

    start(signal) {
      if (started) return;
      started = true;
      // A test's clock waits for the first list: until then the controllers have seen nothing.
      const untrack = options.clock?.track?.(`informer ${label} (not synced yet)`, () => !synced && !signal.aborted);
      if (untrack) signal.addEventListener('abort', untrack, { once: true });
      if (options.resyncPeriodMs) resync(options.resyncPeriodMs, signal);
      run(signal).catch((error: unknown) => logger.error({ kind: label, err: error }, 'informer stopped unexpectedly'));
    },

    addHandler(handler) {
      handlers.add(handler);
      if (synced) for (const object of store.values()) call(handler, (h) => h.add?.(readOnly(object), true));
      return () => {
        handlers.delete(handler);
      };
    },

    addIndex: (name, fn) => store.addIndex(name, (object) => fn(readOnly(object))),
    get: (name, ns) => {
      const object = store.get(objectKey(kind.namespaced ? ns : undefined, name));
      return object && readOnly(object);
    },
    list: (listOptions) => store.list(listOptions).map(readOnly),
    hasSynced: () => synced,
    reselect: () => reselectRound(),
    metadataOnly: options.metadataOnly === true,

    async waitForSync(timeoutMs, signal) {
      if (synced) return true;
      if (signal?.aborted) return false;
      let timer: NodeJS.Timeout | undefined;
      let onAbort: (() => void) | undefined;
      const timeout = new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
        onAbort = () => resolve(false);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
      try {
        return await Promise.race([syncedPromise.then(() => true), timeout]);
      } finally {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort!);
      }
    },

    health: (): InformerHealth => ({ kind: label, synced, healthy: synced && health.consecutiveFailures === 0, ...health }),
  };
}
