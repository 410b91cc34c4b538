import { ApiError, isGone } from '../client/errors.js';
import { listAll } from '../client/list.js';
import { apiVersionOf, type Kind } from '../api/kind.js';
import type { LoggerLike } from '../client/logger.js';
import { kindLabel } from '../client/paths.js';
import { sleep } from '../client/sleep.js';
import type { Transport } from '../client/transport.js';
import { objectKey, type KubeObject } from '../object.js';
import { backoffDelay, type BackoffOptions } from './backoff.js';
import { diffRelist } from './diff.js';
import { createStore, keyOf } from './store.js';
import type { EventHandler, Informer, InformerHealth, KindCacheOptions } from './types.js';
import { WATCH_IDLE, watchOnce, type WatchEvent } from './watch.js';

export interface InformerOptions<T extends KubeObject> extends KindCacheOptions<T> {
  /** Watch namespaced kinds in this namespace only. */
  namespace?: string;
  logger: LoggerLike;
  backoff?: BackoffOptions;
}

/** An informer the cache can start; see {@link Informer} for what users see. */
export interface RunnableInformer<T extends KubeObject> extends Informer<T> {
  /** Lists and watches until `signal` aborts. Starting twice is a no-op. */
  start(signal: AbortSignal): void;
}

/** A watch that delivered something, or stayed open this long, was healthy: backoff restarts. */
const HEALTHY_WATCH_MS = 10_000;
/**
 * Watches are asked to end after 45–55 s (spread so informers do not reconnect together)
 * and reopened from the last resourceVersion, which the API server answers from its watch
 * cache. A watch still open and silent 10 s past its server-side timeout is on a dead
 * connection (a NAT or load balancer that dropped the flow answers nothing, ever): so a
 * half-open connection is found within about a minute. Bookmarks alone cannot do that:
 * measured against kube-apiserver 1.36, the first bookmark of an idle watch comes after
 * 120 s and the next ones every 60 s.
 */
const WATCH_TIMEOUT_SECONDS = 45;
const WATCH_TIMEOUT_SPREAD_SECONDS = 10;
const WATCH_GRACE_MS = 10_000;
/** A watch the server closes sooner than this without a single event counts as a failure. */
const MIN_WATCH_MS = 1_000;

/**
 * List+watch of one kind, written on a raw watch stream instead of client-node's
 * informer, which stops for good on any error but 410. This one:
 * - lists in pages, then watches from the list's resourceVersion with bookmarks, and
 *   resumes every later watch from the last resourceVersion seen (bookmarks included);
 * - on 410 Gone (HTTP or a watch ERROR event) relists after a backoff and emits the
 *   difference: adds, updates, and deletes of objects that vanished meanwhile;
 * - when the server refuses a watch (403 Forbidden, 5xx…) falls back to relisting, so a
 *   kind that may be listed but not watched is still refreshed, never stale for good;
 * - when a watch stays open and silent past its server-side timeout (a half-open
 *   connection) logs the stall and reconnects from the last resourceVersion;
 * - every failure backs off exponentially 0.8 s → 30 s with jitter, reset once a watch
 *   proves healthy, and makes the informer unhealthy (for `/readyz`) until a watch opens
 *   again; a watch the server ends normally reopens at once.
 */
export function createInformer<T extends KubeObject>(transport: Transport, kind: Kind<T>, options: InformerOptions<T>): RunnableInformer<T> {
  const label = kindLabel(kind);
  const namespace = kind.namespaced ? options.namespace : undefined;
  const logger = options.logger;
  const store = createStore<T>();
  const handlers = new Set<EventHandler<T>>();
  let resourceVersion = '';
  let synced = false;
  let markSynced!: () => void;
  const syncedPromise = new Promise<void>((resolve) => (markSynced = resolve));
  let started = false;
  const health = { lastContact: undefined as Date | undefined, consecutiveFailures: 0, lastError: undefined as string | undefined };

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

  const selection = { labelSelector: options.labelSelector, fieldSelector: options.fieldSelector, metadataOnly: options.metadataOnly };
  const apiVersion = apiVersionOf(kind);

  /** Strips what the cache never needs, then the user's transform; the object is freshly parsed, so no copy. */
  function prepare(object: T): T {
    // Assigning keeps V8's fast object layout, where `delete` would turn the object into
    // a slower, larger dictionary; managedFields are often half an object's size.
    if (object.metadata?.managedFields) object.metadata.managedFields = undefined;
    if (options.metadataOnly) {
      object.apiVersion = apiVersion;
      object.kind = kind.kind;
    }
    return options.transform ? options.transform(object) : object;
  }

  async function relist(signal: AbortSignal): Promise<void> {
    const listed = await listAll(transport, kind, { namespace, signal, ...selection });
    const items = listed.items.map(prepare);
    const diff = diffRelist(store, items);
    for (const object of diff.added) store.put(object);
    for (const [, object] of diff.updated) store.put(object);
    for (const object of diff.deleted) store.remove(keyOf(object));
    resourceVersion = listed.resourceVersion;
    contact();
    if (synced) {
      logger.info(
        { kind: label, added: diff.added.length, updated: diff.updated.length, deleted: diff.deleted.length, unchanged: diff.unchanged, resourceVersion },
        'informer relisted',
      );
    }
    for (const object of diff.added) emit((h) => h.add?.(object));
    for (const [old, object] of diff.updated) emit((h) => h.update?.(old, object));
    for (const object of diff.deleted) emit((h) => h.delete?.(object));
    if (!synced) {
      synced = true;
      markSynced();
      logger.debug({ kind: label, objects: store.size, resourceVersion }, 'informer synced');
    }
  }

  function onWatchEvent(event: WatchEvent<T>): void {
    contact();
    const object = event.object;
    const version = object.metadata?.resourceVersion;
    if (event.type !== 'BOOKMARK') {
      const prepared = prepare(object);
      const key = keyOf(prepared);
      if (event.type === 'DELETED') {
        if (store.remove(key)) emit((h) => h.delete?.(prepared));
      } else {
        const old = store.get(key);
        if (!old || old.metadata?.resourceVersion !== version) {
          store.put(prepared);
          if (old) emit((h) => h.update?.(old, prepared));
          else emit((h) => h.add?.(prepared));
        }
      }
    }
    if (version) resourceVersion = version;
  }

  /** Waits out the backoff of failure number `failures`, counting it against the informer's health unless it is a routine 410. */
  async function backOff(failures: number, error: Error, phase: string, signal: AbortSignal, expired = false): Promise<void> {
    const delayMs = Math.round(backoffDelay(failures, options.backoff));
    if (expired) {
      logger.info({ kind: label, resourceVersion, retryInMs: delayMs, reason: error.message }, 'watch expired (410 Gone): relisting');
    } else {
      health.consecutiveFailures++;
      health.lastError = error.message;
      logger.warn({ kind: label, err: error, failures, retryInMs: delayMs, phase, resourceVersion }, `${phase} of ${label} failed; retrying`);
    }
    await sleep(delayMs, signal);
  }

  async function run(signal: AbortSignal): Promise<void> {
    let mustList = true;
    let failures = 0;
    while (!signal.aborted) {
      let watchStart: number | undefined;
      let events = 0;
      try {
        if (mustList) {
          await relist(signal);
          mustList = false;
        }
        const timeoutSeconds = WATCH_TIMEOUT_SECONDS + Math.floor(Math.random() * WATCH_TIMEOUT_SPREAD_SECONDS);
        const idleMs = timeoutSeconds * 1000 + WATCH_GRACE_MS;
        watchStart = Date.now();
        const end = await watchOnce(
          transport,
          kind,
          { namespace, resourceVersion, timeoutSeconds, idleMs, signal, onOpen: opened, ...selection },
          (event) => {
            events++;
            onWatchEvent(event);
          },
        );
        if (end === 'expired') {
          // A relist is a full read of the collection: back off like any failure, so that
          // informers of a restarted or compacted server do not all relist at once.
          if (events > 0 || Date.now() - watchStart >= HEALTHY_WATCH_MS) failures = 0;
          failures++;
          mustList = true;
          await backOff(failures, new Error(`watch from resourceVersion ${resourceVersion} expired (410 Gone)`), 'watch', signal, true);
          continue;
        }
        if (events === 0 && Date.now() - watchStart < MIN_WATCH_MS) throw new Error('watch closed by the server as soon as it opened');
        contact();
        failures = 0;
      } catch (error) {
        if (signal.aborted) return;
        if (watchStart !== undefined && (events > 0 || Date.now() - watchStart >= HEALTHY_WATCH_MS)) failures = 0;
        failures++;
        const phase = mustList ? 'list' : 'watch';
        const expired = !mustList && isGone(error);
        if (!mustList && error instanceof ApiError) {
          // The server refused the watch (403, 410, 5xx…): the store would miss every change
          // from now on, so the next try lists again instead of only re-watching.
          mustList = true;
        } else if ((error as NodeJS.ErrnoException).code === WATCH_IDLE) {
          logger.warn({ kind: label, resourceVersion }, `watch of ${label} stalled: reconnecting from resourceVersion ${resourceVersion}`);
        }
        await backOff(failures, error as Error, phase, signal, expired);
      }
    }
  }

  /** Re-delivers every cached object as an unchanged update each `periodMs`, until `signal` aborts. */
  function resync(periodMs: number, signal: AbortSignal): void {
    const timer = setInterval(() => {
      if (!synced) return;
      for (const object of store.values()) emit((h) => h.update?.(object, object));
    }, periodMs);
    timer.unref();
    signal.addEventListener('abort', () => clearInterval(timer), { once: true });
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
      if (options.resyncPeriodMs) resync(options.resyncPeriodMs, signal);
      run(signal).catch((error: unknown) => logger.error({ kind: label, err: error }, 'informer stopped unexpectedly'));
    },

    addHandler(handler) {
      handlers.add(handler);
      if (synced) for (const object of store.values()) call(handler, (h) => h.add?.(object));
      return () => {
        handlers.delete(handler);
      };
    },

    addIndex: (name, fn) => store.addIndex(name, fn),
    get: (name, ns) => store.get(objectKey(kind.namespaced ? ns : undefined, name)),
    list: (listOptions) => store.list(listOptions),
    hasSynced: () => synced,
    metadataOnly: options.metadataOnly === true,

    async waitForSync(timeoutMs) {
      if (synced) return true;
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
      try {
        return await Promise.race([syncedPromise.then(() => true), timeout]);
      } finally {
        clearTimeout(timer);
      }
    },

    health: (): InformerHealth => ({ kind: label, synced, healthy: synced && health.consecutiveFailures === 0, ...health }),
  };
}
