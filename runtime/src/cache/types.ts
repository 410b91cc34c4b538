import type { Kind } from '../api/kind.js';
import type { DeepReadonly, KubeObject, Stored } from '../object.js';

/**
 * An object as the cache holds it: stored (identity present) and shared, so read-only.
 *
 * @example
 * const names = (pods: readonly Cached<kinds.Pod>[]) => pods.map((pod) => pod.metadata.name);
 */
export type Cached<T extends KubeObject> = DeepReadonly<Stored<T>>;

/** Callbacks an informer calls after its store has taken the change; the objects are the cache's, read-only. */
export interface EventHandler<T extends KubeObject> {
  /**
   * `initialList` is true for objects that were there before the handler started
   * watching (the informer's first list, or the store's content replayed to a handler added
   * later): work nobody is waiting on, which controllers queue at low priority.
   */
  add?(object: Cached<T>, initialList: boolean): void;
  /** The object changed (or a resync passed: `oldObject` is then `newObject`). */
  update?(oldObject: Cached<T>, newObject: Cached<T>): void;
  /** The object was deleted, or was gone when a relist came back (its last known state). */
  delete?(object: Cached<T>): void;
}

/** Selects cached objects; `index` uses indexes registered with `addIndex`. */
export interface ListOptions {
  namespace?: string;
  /** Equality-based label selector as an object, e.g. `{ app: 'web' }`. */
  labels?: Record<string, string>;
  /** Objects indexed under `value` by the index `name`; several: all of them at once. */
  index?: IndexQuery | readonly IndexQuery[];
}

/** One index and the value looked up in it. */
export interface IndexQuery {
  name: string;
  value: string;
}

/**
 * One kind's list+watch, kept alive through watch failures, API server restarts and 410
 * Gone, with a store of the objects it has seen (managedFields stripped).
 */
export interface Informer<T extends KubeObject> {
  readonly kind: Kind<T>;
  /**
   * Registers handlers. A handler added after the initial list gets an `add` for every
   * object already in the store. Returns a function that unregisters it.
   */
  addHandler(handler: EventHandler<T>): () => void;
  /** Adds a named index: `fn` returns the values an object is indexed under. */
  addIndex(name: string, fn: (object: Cached<T>) => string[]): void;
  /**
   * The cached object itself, shared with every reader and handler, hence read-only
   * (the client's `get` hands out copies).
   */
  get(name: string, namespace?: string): Cached<T> | undefined;
  /** Cached objects, shared like {@link Informer.get}'s. */
  list(options?: ListOptions): Cached<T>[];
  /** Whether the first list is in the store. */
  hasSynced(): boolean;
  /**
   * Lists again at once with the selection {@link KindCacheOptions.selection} gives now
   * (the watch in progress ends): objects no longer selected are deleted from the store,
   * newly selected ones added, each with its handler event.
   */
  reselect(): void;
  /** Whether this informer keeps only metadata (see {@link KindCacheOptions.metadataOnly}). */
  readonly metadataOnly: boolean;
  /** Resolves true once the first list is in the store, false if `timeoutMs` passes or `signal` aborts first. */
  waitForSync(timeoutMs: number, signal?: AbortSignal): Promise<boolean>;
  /** When it last heard from the API server and whether its watch is up, for readiness checks. */
  health(): InformerHealth;
}

/** How an informer's connection to the API server is doing: for readiness checks and logs. */
export interface InformerHealth {
  /** `Pod`, `Deployment.apps`, `DemoVolume.storage.example.com`. */
  kind: string;
  synced: boolean;
  /** Synced, and its watch is open: no failure since the last watch the server accepted. */
  healthy: boolean;
  /** Last time the API server answered: a list, a watch event or bookmark, a watch that ended cleanly. */
  lastContact: Date | undefined;
  /** Failed lists or watches since a watch was last accepted; 0 when all is well. */
  consecutiveFailures: number;
  /** The most recent failure's message, kept after recovery for the logs. */
  lastError: string | undefined;
  /** Objects received so far of a list in progress (the first or a relist, paged or streamed); undefined when none is. */
  listing: number | undefined;
}

/**
 * How one kind is cached, controller-runtime's `cache.ByObject`. Selectors and
 * `metadataOnly` shrink what is listed, watched and held; reads through the client of a
 * selected kind see only the selected objects, as in controller-runtime.
 */
export interface KindCacheOptions<T extends KubeObject = KubeObject> {
  /** Only objects matching this label selector (API syntax, e.g. `app.kubernetes.io/managed-by=my-operator`). */
  labelSelector?: string;
  /** Only objects matching this field selector (API syntax, e.g. `type=kubernetes.io/tls`). */
  fieldSelector?: string;
  /**
   * Only `metadata` (names, labels, annotations, owner references…) is fetched and kept:
   * enough for `owns()` and watches that map objects to owners, at a fraction of the
   * memory. The client reads such a kind from the API server, never from this cache.
   * The objects such an informer hands out are deeply frozen (equal labels, annotations
   * and owner references are shared between objects): copy one before changing it.
   */
  metadataOnly?: boolean;
  /**
   * Rewrites each object before it is stored and handed to handlers (managedFields are
   * already gone), e.g. to drop large fields. Keep `metadata.name`, `namespace` and
   * `resourceVersion`: the cache keys and compares objects by them.
   */
  transform?: (object: T) => T;
  /**
   * Selectors decided while running, asked before every list and watch (and so applied by
   * {@link Informer.reselect}): a label selector added to `labelSelector`, and a
   * `shardSelector` for server-side sharding (Kubernetes' alpha `ShardedListAndWatch`,
   * KEP-5866), e.g. `shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000')`.
   * Sharding (`ManagerOptions.sharding`) sets it on the sharded kinds.
   *
   * @example
   * let range = "shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000')";
   * createCache(kubeConfig, {
   *   byKind: [{ kind: Widget, selection: () => ({ shardSelector: range }) }],
   * });
   */
  selection?: () => { labelSelector?: string; shardSelector?: string };
  /** Overrides the cache's `resyncPeriodMs` for this kind. */
  resyncPeriodMs?: number;
}

/** Shared informers, one per kind, started together. */
export interface Cache {
  /** The one namespace namespaced kinds are watched in; undefined for all namespaces. */
  readonly namespace: string | undefined;
  /** The informer of `kind`, created on first use; started at once if the cache runs. */
  informerFor<T extends KubeObject>(kind: Kind<T>): Informer<T>;
  /** Whether an informer for `kind` exists (reads of such kinds are served from it). */
  has(kind: Kind): boolean;
  /** Starts every informer; they run until `signal` aborts. */
  start(signal: AbortSignal): void;
  /** Resolves true once every informer has listed, false if `timeoutMs` passes first. */
  waitForSync(timeoutMs: number): Promise<boolean>;
  /** Every informer's health. */
  health(): InformerHealth[];
}
