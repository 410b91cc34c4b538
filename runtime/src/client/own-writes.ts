import type { Kind } from '../api/kind.js';
import type { Informer } from '../cache/types.js';
import { objectKey, type DeepReadonly, type KubeObject } from '../object.js';

/** A write this process made, not yet seen by the cache. */
interface Pending {
  resourceVersion: string;
  deleted: boolean;
  name: string;
  namespace: string | undefined;
  at: number;
}

/**
 * Read-your-writes for cached reads: the client records the resourceVersion of each of
 * its writes, and a cached read first waits until the informer holds that version (or a
 * later one, or the deletion), so a reconcile never acts on a copy older than its own
 * last write: e.g. a list right after a create includes the created object, which keeps
 * a controller from creating it twice. A waiting read wakes on the informer's event for
 * an object it waits for, not on a timer.
 */
export interface OwnWrites {
  wrote(kind: Kind, object: KubeObject | undefined, deleted?: boolean): void;
  /** Whether `informer` has caught up with the writes of `kind` in `namespace` (one object when `name` is given) within the wait limit. */
  caughtUp(kind: Kind, informer: Informer<KubeObject>, namespace: string | undefined, name: string | undefined, signal: AbortSignal | undefined): Promise<boolean>;
}

/** Entries kept at most: a process writing more than this without reading them back keeps only the last minute's. */
const SWEEP_ABOVE = 5_000;
const SWEEP_AGE_MS = 60_000;

export function createOwnWrites(waitMs: number): OwnWrites {
  const byKind = new Map<string, Map<string, Pending>>();
  let size = 0;
  const kindKey = (kind: Kind) => `${kind.group}/${kind.version}/${kind.plural}`;
  /** Informers whose events wake waiting reads, and the reads waiting. */
  const listened = new WeakSet<Informer<KubeObject>>();
  const waiting = new Set<() => void>();

  /** Wakes the waiting reads on each event of `informer` about an object written and not yet seen. */
  function listen(kind: Kind, informer: Informer<KubeObject>): void {
    if (listened.has(informer)) return;
    listened.add(informer);
    const seen = (object: DeepReadonly<KubeObject>): void => {
      const pending = byKind.get(kindKey(kind));
      const meta = object.metadata;
      if (!pending?.size || !meta?.name || !pending.has(objectKey(kind.namespaced ? meta.namespace : undefined, meta.name))) return;
      for (const wake of [...waiting]) wake();
    };
    // Deleted at or after this process's write (by anyone): the write is overtaken, so no read
    // waits for the cache to show it; the informer never will once the object is gone.
    const gone = (object: DeepReadonly<KubeObject>): void => {
      const pending = byKind.get(kindKey(kind));
      const meta = object.metadata;
      const key = meta?.name ? objectKey(kind.namespaced ? meta.namespace : undefined, meta.name) : undefined;
      const entry = key === undefined ? undefined : pending?.get(key);
      // Wake waiting reads first (their check runs after this handler returns, and finds the entry gone).
      seen(object);
      if (entry && !entry.deleted && (meta?.resourceVersion === entry.resourceVersion || newer(meta?.resourceVersion, entry.resourceVersion))) {
        pending!.delete(key!);
        size--;
      }
    };
    informer.addHandler({ add: seen, update: (_old, object) => seen(object), delete: gone });
  }

  /** Resolves on the next wake, after `ms`, or when `signal` aborts, whichever comes first. */
  function nextEvent(ms: number, signal: AbortSignal | undefined): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        waiting.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal?.addEventListener('abort', done, { once: true });
      waiting.add(done);
    });
  }

  function sweep(now: number): void {
    for (const pending of byKind.values()) {
      for (const [key, entry] of pending) {
        if (now - entry.at > SWEEP_AGE_MS) {
          pending.delete(key);
          size--;
        }
      }
    }
  }

  /** Whether the cached object reflects `entry`. resourceVersions are etcd revisions: numbers that grow. */
  function reflects(entry: Pending, cached: DeepReadonly<KubeObject> | undefined): boolean {
    const version = cached?.metadata?.resourceVersion;
    if (entry.deleted) return !cached || cached.metadata?.deletionTimestamp !== undefined || newer(version, entry.resourceVersion);
    return version === entry.resourceVersion || newer(version, entry.resourceVersion);
  }

  return {
    wrote(kind, object, deleted = false) {
      const meta = object?.metadata;
      if (!meta?.name || (!meta.resourceVersion && !deleted)) return;
      let pending = byKind.get(kindKey(kind));
      if (!pending) byKind.set(kindKey(kind), (pending = new Map()));
      const key = objectKey(kind.namespaced ? meta.namespace : undefined, meta.name);
      if (!pending.has(key)) size++;
      const at = performance.now();
      pending.set(key, { resourceVersion: meta.resourceVersion ?? '', deleted, name: meta.name, namespace: meta.namespace, at });
      if (size > SWEEP_ABOVE) sweep(at);
    },

    async caughtUp(kind, informer, namespace, name, signal) {
      const pending = byKind.get(kindKey(kind));
      if (!pending || pending.size === 0) return true;
      listen(kind, informer);
      // A read of one object looks at that object's write alone; a list at those of its namespace.
      const only = name === undefined ? undefined : objectKey(kind.namespaced ? namespace : undefined, name);
      const relevant = (): Iterable<[string, Pending]> => {
        if (only === undefined) return pending;
        const entry = pending.get(only);
        return entry ? [[only, entry]] : [];
      };
      const deadline = performance.now() + waitMs;
      for (;;) {
        let behind = false;
        for (const [key, entry] of relevant()) {
          if (only === undefined && namespace !== undefined && entry.namespace !== namespace) continue;
          const cached = informer.get(entry.name, entry.namespace);
          if (reflects(entry, cached)) {
            pending.delete(key);
            size--;
          } else {
            behind = true;
          }
        }
        if (!behind) return true;
        const left = deadline - performance.now();
        if (left <= 0 || signal?.aborted) return false;
        await nextEvent(left, signal);
      }
    },
  };
}

function newer(version: string | undefined, than: string): boolean {
  if (!version || !/^\d+$/.test(version) || !/^\d+$/.test(than)) return false;
  return BigInt(version) > BigInt(than);
}
