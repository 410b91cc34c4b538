import type { KubeConfig } from '../rest/kubeconfig.js';
import { apiVersionOf, type Kind } from '../api/kind.js';
import type { Cache, Informer } from '../cache/types.js';
import type { DeepReadonly, KubeObject, Stored } from '../object.js';
import { isNotFound } from '../rest/errors.js';
import { labelSelector, listAll } from '../rest/list.js';
import type { LoggerLike } from '../rest/logger.js';
import { createOwnWrites, writeEffect, type OwnWrites } from './own-writes.js';
import { kindLabel, requireScope, resourcePath } from '../rest/paths.js';
import { tokenBucketFor, type TokenBucket } from '../rest/token-bucket.js';
import type { Transport, TransportObserver } from '../rest/transport.js';
import { clusterOf, isCluster, withTimeout, type Cluster } from '../rest/cluster.js';
import { recordedCall, type CallIdentity } from '../observe/reconcile-records.js';

/**
 * A JSON merge patch (RFC 7386) of `T`: objects merge key by key, `null` deletes a key,
 * arrays replace the whole array.
 */
export type MergePatch<T> = { [K in keyof T]?: PatchValue<NonNullable<T[K]>> | null };
type PatchValue<V> = V extends readonly unknown[] ? V : V extends object ? MergePatch<V> : V;

/**
 * What server-side apply takes: only the fields this field manager has an opinion on.
 * `metadata.name` (and `namespace` for namespaced kinds) identify the object.
 */
export type ApplyObject<T> = { readonly [K in keyof T]?: ApplyValue<Exclude<T[K], undefined>> };
// Arrays are read-only here so that parts of objects read from the cache (typed
// `DeepReadonly`) go into an apply unchanged.
type ApplyValue<V> = V | (V extends readonly (infer U)[] ? readonly ApplyValue<U>[] : V extends object ? ApplyObject<V> : V);

/** What {@link Client.list} lists. */
export interface ListQuery {
  /** Objects of this namespace only; all namespaces when left out. */
  namespace?: string;
  /** Equality label selector, e.g. `{ app: 'web' }`. */
  labels?: Record<string, string>;
  /**
   * Objects a cache index files under these values, controller-runtime's `MatchingFields`:
   * `{ owner: cronJob.metadata.name }` with an index `owner` declared on the controller
   * (`.owns(kinds.Job, { indexes: { owner: … } })`). Served from the cache only, together
   * with `namespace` and `labels`; a client that does not read the kind from a synced cache
   * refuses it.
   */
  index?: Record<string, string>;
}

/** Options of {@link Client.apply} and {@link Client.applyStatus}. */
export interface ApplyOptions {
  /** Overrides the client's field manager for this call. */
  fieldManager?: string;
  /**
   * Take ownership of fields another manager owns instead of failing with a 409 conflict.
   * Default `true`: a controller is the authority over the objects it applies, which is
   * the usage controller-runtime recommends (`client.ForceOwnership`). Pass `false` to
   * have conflicts surface as `isConflict` errors.
   */
  force?: boolean;
}

/** Options of {@link Client.delete}. */
export interface DeleteOptions {
  /** `Background` (the API's default for most kinds), `Foreground` or `Orphan`. */
  propagationPolicy?: 'Background' | 'Foreground' | 'Orphan';
  gracePeriodSeconds?: number;
  /**
   * Delete only the object with this uid (and resourceVersion): one deleted and recreated
   * by someone else since it was read is left alone, with a conflict.
   */
  preconditions?: { uid?: string; resourceVersion?: string };
}

/**
 * A typed client for any kind, built-in (`kinds.Pod`) or custom (a `defineKind` handle).
 * Objects are plain JSON as the API server sends them. Reads of kinds the attached cache
 * watches are served from the cache (as copies, safe to change), once it shows this
 * client's own earlier writes of them; everything else and every write goes to the API
 * server. Failures throw `ApiError`; branch with `isNotFound`,
 * `isConflict`, `isAlreadyExists`, `isGone`, `isInvalid`.
 */
export interface Client {
  /** The field manager this client writes as; see {@link Client.withFieldManager}. */
  readonly fieldManager: string;
  /**
   * The object, or `undefined` when it does not exist. Objects read or written come back
   * {@link Stored}: their identity (`metadata.name`, `uid`, …) is typed present.
   */
  get<T extends KubeObject, N extends boolean>(kind: Kind<T, N>, name: string, namespace?: string): Promise<Stored<T, N> | undefined>;
  /** The objects of `kind` that `query` selects, every page of them; from the cache when it serves the kind. */
  list<T extends KubeObject, N extends boolean>(kind: Kind<T, N>, query?: ListQuery): Promise<Stored<T, N>[]>;
  /** Creates the object; `metadata.generateName` works. `apiVersion`/`kind` are filled in from `kind`. */
  create<T extends KubeObject, N extends boolean>(kind: Kind<T, N>, object: T): Promise<Stored<T, N>>;
  /** Replaces the object; fails with a conflict when `metadata.resourceVersion` is stale. */
  update<T extends KubeObject, N extends boolean>(kind: Kind<T, N>, object: T): Promise<Stored<T, N>>;
  /**
   * JSON merge patch of the object named by `object.metadata`. Put
   * `metadata.resourceVersion` in the patch to make it conditional on that version.
   */
  patch<T extends KubeObject, N extends boolean>(kind: Kind<T, N>, object: DeepReadonly<KubeObject>, patch: MergePatch<T>): Promise<Stored<T, N>>;
  /** Deletes the object; a missing object is not an error. */
  delete<T extends KubeObject>(kind: Kind<T>, object: DeepReadonly<KubeObject>, options?: DeleteOptions): Promise<void>;
  /** Replaces the status subresource (the rest of `object` is ignored by the server). */
  updateStatus<T extends KubeObject, N extends boolean>(kind: Kind<T, N>, object: T): Promise<Stored<T, N>>;
  /** JSON merge patch of the status subresource, e.g. `{ status: { ready: true } }`. */
  patchStatus<T extends KubeObject, N extends boolean>(kind: Kind<T, N>, object: DeepReadonly<KubeObject>, patch: MergePatch<T>): Promise<Stored<T, N>>;
  /**
   * Server-side apply: the API server merges `object` with what other managers own and
   * records this client's field manager as the owner of every field in it. Fields this
   * manager applied before and leaves out now are removed.
   */
  apply<T extends KubeObject, N extends boolean>(kind: Kind<T, N>, object: ApplyObject<T>, options?: ApplyOptions): Promise<Stored<T, N>>;
  /** Server-side apply of the status subresource. */
  applyStatus<T extends KubeObject, N extends boolean>(kind: Kind<T, N>, object: ApplyObject<T>, options?: ApplyOptions): Promise<Stored<T, N>>;
  /** The same client (connections, cache) writing as another field manager: one per controller. */
  withFieldManager(name: string): Client;
  /**
   * The same client reading straight from the API server, never from the cache: for the
   * read after a conflict, or whenever a read must see the latest write.
   */
  uncached(): Client;
  /**
   * The same client whose every call is cancelled when `signal` aborts (besides each
   * call's own deadline): a reconcile's `ctx.client` is bound to the reconcile's signal.
   * A cancelled call rejects with an error named `AbortError`.
   */
  withSignal(signal: AbortSignal, options?: BindOptions): Client;
}

/** Options of {@link Client.withSignal}. */
export interface BindOptions {
  /**
   * Runs synchronously right before each try is sent; throwing cancels the call. The
   * manager's leader-election fence: after an event-loop stall it may run before any timer.
   */
  precondition?: () => void;
}

/** Options of {@link createClient}. */
export interface ClientOptions {
  /** Field manager of writes and server-side apply; default `opgen`. */
  fieldManager?: string;
  /** Serve reads of the kinds this cache watches from it once it has synced. */
  cache?: Cache;
  /**
   * Deadline of each call, its retries included, default 60 000 ms. 429s and 5xx (and
   * connection failures of idempotent calls) are retried inside the call up to 10 tries,
   * honouring `Retry-After`, as client-go does.
   */
  timeoutMs?: number;
  /** How long one try waits for response headers before its connection is presumed dead; default 20 000 ms. */
  responseTimeoutMs?: number;
  /**
   * Client-side rate limit in requests per second (client-go's QPS); off by default, as
   * in controller-runtime: API Priority and Fairness limits on the server. Every try of
   * every call takes a token first; watches take none.
   */
  qps?: number;
  /** Burst of the client-side rate limit; default `qps` rounded up. */
  burst?: number;
  /**
   * A token bucket shared with other clients and caches instead of a bucket of this
   * client's own (the manager passes its one bucket here); not together with `qps`.
   */
  rateLimiter?: TokenBucket;
  /** Receives each response and retry: the manager feeds `rest_client_*` metrics from it. */
  observer?: TransportObserver;
  /** Hears of retried 5xx responses and broken connections: each at debug, a warning at most every 30 s. */
  logger?: LoggerLike;
  /**
   * Read-your-writes: a cached read of an object (or list of a kind) this client wrote
   * waits up to this long for the cache to show that write, then reads from the API server
   * instead. Default 5 000 ms; `0` turns it off.
   */
  readYourWritesMs?: number;
}

const APPLY_PATCH = 'application/apply-patch+yaml';
const MERGE_PATCH = 'application/merge-patch+json';

/**
 * Creates a {@link Client} sending through `cluster`'s transport (a manager passes its one
 * {@link Cluster}), or for a kubeconfig's current context on a connection of its own.
 * `qps`, `burst`, `rateLimiter`, `observer` and `responseTimeoutMs` are the connection's:
 * with a cluster, set them in `createCluster`.
 */
export function createClient(cluster: Cluster | KubeConfig, options: ClientOptions = {}): Client {
  const connection = isCluster(cluster)
    ? clusterOf(cluster, { qps: options.qps, burst: options.burst, rateLimiter: options.rateLimiter, observer: options.observer, responseTimeoutMs: options.responseTimeoutMs }, 'createClient')
    : clusterOf(cluster, { responseTimeoutMs: options.responseTimeoutMs, rateLimiter: rateLimiterOf(options), observer: options.observer, logger: options.logger }, 'createClient');
  const transport = withTimeout(connection.transport, options.timeoutMs);
  const waitMs = options.readYourWritesMs ?? 5_000;
  const ownWrites = options.cache && waitMs > 0 ? createOwnWrites(waitMs) : undefined;
  return buildClient({ transport, cache: options.cache, ownWrites }, options.fieldManager ?? 'opgen', {});
}

function rateLimiterOf(options: ClientOptions): TokenBucket | undefined {
  if (options.rateLimiter && (options.qps || options.burst)) throw new Error('createClient: give either rateLimiter or qps/burst, not both');
  return options.rateLimiter ?? tokenBucketFor(options.qps, options.burst);
}

/** What every client derived from one `createClient` shares. */
interface Shared {
  transport: Transport;
  cache: Cache | undefined;
  ownWrites: OwnWrites | undefined;
}

interface Binding {
  signal?: AbortSignal;
  precondition?: () => void;
}

function buildClient(shared: Shared, fieldManager: string, binding: Binding): Client {
  const { transport, cache, ownWrites } = shared;
  const { signal, precondition } = binding;
  /** The synced informer that can answer a read in `namespace`, if any. */
  function cached<T extends KubeObject>(kind: Kind<T>, namespace: string | undefined) {
    if (!cache?.has(kind)) return undefined;
    if (cache.namespace && kind.namespaced && namespace !== cache.namespace) return undefined;
    const informer = cache.informerFor(kind);
    // A metadata-only informer cannot answer a read of whole objects.
    return informer.hasSynced() && !informer.metadataOnly ? informer : undefined;
  }

  /** Whether the cache shows this process's writes of `kind` (one object when `name` is given); false: read the API server. */
  function caughtUp(kind: Kind, informer: Informer<KubeObject>, namespace: string | undefined, name: string | undefined): Promise<boolean> {
    return ownWrites ? ownWrites.caughtUp(kind, informer, namespace, name, signal) : Promise.resolve(true);
  }

  /** The cache's informer of `kind` when it has one: this process's writes of it are then followed there. */
  function following(kind: Kind): Informer<KubeObject> | undefined {
    if (!ownWrites || !cache?.has(kind)) return undefined;
    const informer = cache.informerFor(kind as Kind<KubeObject>) as Informer<KubeObject>;
    ownWrites.follow(kind, informer);
    return informer;
  }

  async function write<T>(kind: Kind, method: 'POST' | 'PUT' | 'PATCH', path: string, body: unknown, contentType?: string, query: Record<string, string | boolean> = {}): Promise<T> {
    const informer = following(kind);
    const written = await recordedCall(
      () => callOf(kind, method, path, contentType, body),
      () => transport.request<T>({ method, path, body, contentType, query: { fieldManager, ...query }, signal, precondition }),
    );
    if (informer) ownWrites!.wrote(kind, written as KubeObject, writeEffect(body, written as KubeObject));
    return written;
  }

  async function apply<T extends KubeObject>(kind: Kind<T>, object: ApplyObject<T>, options: ApplyOptions, subresource?: string): Promise<T> {
    const { name, namespace } = identify(kind, object as KubeObject);
    const typed = withTypeMeta(kind, object as KubeObject);
    // The API server rejects apply bodies that carry managedFields, as objects read back do.
    const body = typed.metadata?.managedFields ? { ...typed, metadata: { ...typed.metadata, managedFields: undefined } } : typed;
    return write<T>(kind, 'PATCH', resourcePath(kind, namespace, name, subresource), body, APPLY_PATCH, {
      fieldManager: options.fieldManager ?? fieldManager,
      force: options.force ?? true,
    });
  }

  /**
   * An index query: only the cache has indexes. Like controller-runtime it answers from the
   * cache as it stands (waiting for this client's own writes first when it can).
   */
  async function listByIndex<T extends KubeObject>(kind: Kind<T>, informer: Informer<T> | undefined, query: ListQuery): Promise<never[]> {
    const index = Object.entries(query.index ?? {}).map(([name, value]) => ({ name, value }));
    if (!informer) {
      throw new Error(`list of ${kindLabel(kind)} by index ${index.map((i) => i.name).join(', ')}: indexes live in the cache, and this client does not read ${kindLabel(kind)} from one (declare the index on a controller that watches the kind, and list with its ctx.client)`);
    }
    await caughtUp(kind, informer as Informer<KubeObject>, query.namespace, undefined);
    // Copies: the cache's objects are shared with every reader and handler.
    return informer.list({ namespace: query.namespace, labels: query.labels, index }).map((o) => structuredClone(o) as never);
  }

  return {
    fieldManager,

    async get(kind, name, namespace) {
      const ns = requireScope(kind, name, namespace);
      const informer = cached(kind, ns);
      if (informer && (await caughtUp(kind, informer, ns, name))) {
        const object = informer.get(name, ns);
        return object === undefined ? undefined : (structuredClone(object) as never);
      }
      try {
        return await recordedCall(
          () => ({ verb: 'get', kind: kind.kind, namespace: ns, name, path: resourcePath(kind, ns, name) }),
          () => transport.request({ method: 'GET', path: resourcePath(kind, ns, name), signal, precondition }),
        );
      } catch (error) {
        if (isNotFound(error)) return undefined;
        throw error;
      }
    },

    async list(kind, query = {}) {
      const informer = cached(kind, query.namespace);
      if (query.index) return listByIndex(kind, informer, query);
      if (informer && (await caughtUp(kind, informer, query.namespace, undefined))) return informer.list({ namespace: query.namespace, labels: query.labels }).map((o) => structuredClone(o) as never);
      const { items } = await recordedCall(
        () => ({ verb: 'list', kind: kind.kind, namespace: query.namespace, path: resourcePath(kind, query.namespace) }),
        () => listAll(transport, kind, { namespace: query.namespace, labelSelector: labelSelector(query.labels), signal, precondition }),
      );
      return items as never[];
    },

    create(kind, object) {
      const namespace = requireScope(kind, object.metadata?.name ?? object.metadata?.generateName, object.metadata?.namespace);
      return write(kind, 'POST', resourcePath(kind, namespace), withTypeMeta(kind, object));
    },

    update(kind, object) {
      const { name, namespace } = identify(kind, object);
      return write(kind, 'PUT', resourcePath(kind, namespace, name), withTypeMeta(kind, object));
    },

    patch(kind, object, patch) {
      const { name, namespace } = identify(kind, object);
      return write(kind, 'PATCH', resourcePath(kind, namespace, name), patch, MERGE_PATCH);
    },

    async delete(kind, object, options = {}) {
      const { name, namespace } = identify(kind, object);
      const informer = following(kind);
      try {
        const answer = await recordedCall(() => ({ verb: 'delete', kind: kind.kind, namespace, name, path: resourcePath(kind, namespace, name) }), () => transport.request<KubeObject>({
          method: 'DELETE',
          path: resourcePath(kind, namespace, name),
          // Preconditions exist only in a body's DeleteOptions, and the API server reads the
          // query's options only when there is no body: with one, they all go in it.
          ...(options.preconditions
            ? { body: { apiVersion: 'v1', kind: 'DeleteOptions', propagationPolicy: options.propagationPolicy, gracePeriodSeconds: options.gracePeriodSeconds, preconditions: options.preconditions } }
            : { query: { propagationPolicy: options.propagationPolicy, gracePeriodSeconds: options.gracePeriodSeconds } }),
          signal,
          precondition,
        }));
        // The answer is the object (still there while finalizers run) or a Status.
        if (informer) ownWrites!.wrote(kind, answer?.metadata?.name ? answer : { metadata: { name, namespace } }, 'deleting');
      } catch (error) {
        if (!isNotFound(error)) throw error;
      }
    },

    updateStatus(kind, object) {
      const { name, namespace } = identify(kind, object);
      return write(kind, 'PUT', resourcePath(kind, namespace, name, 'status'), withTypeMeta(kind, object));
    },

    patchStatus(kind, object, patch) {
      const { name, namespace } = identify(kind, object);
      return write(kind, 'PATCH', resourcePath(kind, namespace, name, 'status'), patch, MERGE_PATCH);
    },

    apply: (kind, object, options = {}) => apply(kind, object, options) as never,
    applyStatus: (kind, object, options = {}) => apply(kind, object, options, 'status') as never,

    withFieldManager: (name) => buildClient(shared, name, binding),
    uncached: () => buildClient({ ...shared, cache: undefined }, fieldManager, binding),
    withSignal: (bound, options = {}) =>
      buildClient(shared, fieldManager, {
        signal: signal ? AbortSignal.any([signal, bound]) : bound,
        precondition: options.precondition ?? precondition,
      }),
  };
}

function identify(kind: Kind, object: DeepReadonly<KubeObject>): { name: string; namespace: string | undefined } {
  const name = object.metadata?.name;
  if (!name) throw new Error(`${kindLabel(kind)} object has no metadata.name`);
  return { name, namespace: requireScope(kind, name, object.metadata?.namespace) };
}

/** Which call a write is, from its method and path (the name and subresource follow the kind's plural) and a create's body. */
function callOf(kind: Kind, method: string, path: string, contentType: string | undefined, body: unknown): CallIdentity {
  const verb = method === 'POST' ? 'create' : method === 'PUT' ? 'update' : contentType === APPLY_PATCH ? 'apply' : 'patch';
  const segments = path.split('/');
  const at = segments.lastIndexOf(kind.plural);
  const namespace = segments[at - 2] === 'namespaces' ? segments[at - 1] : undefined;
  // A create names its object in the body (unless the server generates the name).
  const [name = method === 'POST' ? (body as KubeObject | undefined)?.metadata?.name : undefined, subresource] = segments.slice(at + 1);
  return { verb, kind: kind.kind, path, ...(namespace ? { namespace } : {}), ...(name ? { name } : {}), ...(subresource ? { subresource } : {}) };
}

/** A shallow copy with `apiVersion` and `kind` set: the API server needs them in bodies. */
function withTypeMeta(kind: Kind, object: KubeObject): KubeObject {
  if (object.apiVersion && object.kind) return object;
  return { ...object, apiVersion: object.apiVersion ?? apiVersionOf(kind), kind: object.kind ?? kind.kind };
}
