import type { Kind } from '../api/kind.js';
import type { Informer } from '../cache/types.js';
import { objectKey, type DeepReadonly, type KubeObject } from '../object.js';

/**
 * What a write left behind: the object as written; a deletion this process asked for (the
 * object may stay, terminating, while finalizers run); or no object at all (the write
 * removed the last finalizer of an object being deleted, and the API server deleted it).
 */
export type WriteEffect = 'written' | 'deleting' | 'gone';

/** A write this process made, not yet seen by the cache. */
interface Pending {
  resourceVersion: string;
  effect: WriteEffect;
  /** The written object's uid, when the answer had one: an object of another uid is another object. */
  uid: string | undefined;
  name: string;
  namespace: string | undefined;
  at: number;
}

/** A deletion an informer delivered: writes at or before its resourceVersion are overtaken. */
interface Tombstone {
  resourceVersion: string;
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
  /**
   * Starts following `informer`'s deletions before a write of `kind` is sent: a deletion
   * it delivers before the write's answer arrives still overtakes the write.
   */
  follow(kind: Kind, informer: Informer<KubeObject>): void;
  wrote(kind: Kind, object: KubeObject | undefined, effect?: WriteEffect): void;
  /** Whether `informer` has caught up with the writes of `kind` in `namespace` (one object when `name` is given) within the wait limit. */
  caughtUp(kind: Kind, informer: Informer<KubeObject>, namespace: string | undefined, name: string | undefined, signal: AbortSignal | undefined): Promise<boolean>;
}

/** Entries kept at most: a process writing more than this without reading them back keeps only the last minute's. */
const SWEEP_ABOVE = 5_000;
const SWEEP_AGE_MS = 60_000;

export function createOwnWrites(waitMs: number): OwnWrites {
  const byKind = new Map<string, Map<string, Pending>>();
  const deletedByKind = new Map<string, Map<string, Tombstone>>();
  let size = 0;
  const kindKey = (kind: Kind) => `${kind.group}/${kind.version}/${kind.plural}`;
  /** Informers whose events wake waiting reads, and the reads waiting. */
  const listened = new WeakSet<Informer<KubeObject>>();
  const waiting = new Set<() => void>();

  /** Wakes the waiting reads on each event of `informer` about an object written and not yet seen. */
  function listen(kind: Kind, informer: Informer<KubeObject>): void {
    if (listened.has(informer)) return;
    listened.add(informer);
    const keyOf = (object: DeepReadonly<KubeObject>): string | undefined => {
      const meta = object.metadata;
      return meta?.name ? objectKey(kind.namespaced ? meta.namespace : undefined, meta.name) : undefined;
    };
    const seen = (object: DeepReadonly<KubeObject>): void => {
      const pending = byKind.get(kindKey(kind));
      const key = keyOf(object);
      if (!pending?.size || key === undefined || !pending.has(key)) return;
      for (const wake of [...waiting]) wake();
    };
    // Deleted at or after this process's write (by anyone, by the write itself): the write is
    // overtaken, so no read waits for the cache to show it; the informer never will once the
    // object is gone. Remembered for writes whose answer arrives after the deletion's event.
    const gone = (object: DeepReadonly<KubeObject>): void => {
      const key = keyOf(object);
      const version = object.metadata?.resourceVersion;
      if (key === undefined || !version) return;
      let deleted = deletedByKind.get(kindKey(kind));
      if (!deleted) deletedByKind.set(kindKey(kind), (deleted = new Map()));
      if (!deleted.has(key)) size++;
      deleted.set(key, { resourceVersion: version, at: performance.now() });
      const pending = byKind.get(kindKey(kind));
      const entry = pending?.get(key);
      // Wake waiting reads first (their check runs after this handler returns, and finds the entry gone).
      seen(object);
      if (entry && overtakenBy(entry.resourceVersion, version)) {
        pending!.delete(key);
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
    for (const pending of [...byKind.values(), ...deletedByKind.values()]) {
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
    switch (entry.effect) {
      case 'deleting':
        return !cached || cached.metadata?.deletionTimestamp !== undefined || newer(version, entry.resourceVersion);
      case 'gone':
        // Only the object's absence shows it: the API server answers such a write with the
        // object's old resourceVersion, and deletes it in a step of its own, so a concurrent
        // write can still store a newer version that carries the finalizer just removed.
        return !cached || (entry.uid !== undefined && cached.metadata?.uid !== entry.uid);
      default:
        return version === entry.resourceVersion || newer(version, entry.resourceVersion);
    }
  }

  return {
    follow: listen,

    wrote(kind, object, effect = 'written') {
      const meta = object?.metadata;
      if (!meta?.name || (!meta.resourceVersion && effect === 'written')) return;
      const key = objectKey(kind.namespaced ? meta.namespace : undefined, meta.name);
      const resourceVersion = meta.resourceVersion ?? '';
      const deleted = deletedByKind.get(kindKey(kind))?.get(key);
      // The cache already delivered the object's deletion at or after this write: nothing to wait for.
      if (deleted && overtakenBy(resourceVersion, deleted.resourceVersion)) return;
      let pending = byKind.get(kindKey(kind));
      if (!pending) byKind.set(kindKey(kind), (pending = new Map()));
      if (!pending.has(key)) size++;
      const at = performance.now();
      pending.set(key, { resourceVersion, effect, uid: meta.uid, name: meta.name, namespace: meta.namespace, at });
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

/**
 * Whether a write of `written` (a resourceVersion, empty when the API server answered a
 * deletion with a Status) is overtaken by a deletion delivered at `deletedAt`.
 */
function overtakenBy(written: string, deletedAt: string): boolean {
  return written === '' || written === deletedAt || newer(deletedAt, written);
}

/**
 * What a write answered with `written` left behind, as the API server decides it: a write
 * that leaves an object being deleted without finalizers (and without a grace period still
 * running) deletes it. `body` is what was sent: a merge patch or apply body names the
 * finalizers the object keeps when it has `metadata.finalizers`, and keeps them otherwise.
 */
export function writeEffect(body: unknown, written: DeepReadonly<KubeObject> | undefined): WriteEffect {
  const meta = written?.metadata;
  if (!meta?.deletionTimestamp || (meta.deletionGracePeriodSeconds ?? 0) !== 0) return 'written';
  const sent = (body as { metadata?: { finalizers?: readonly string[] | null } } | undefined)?.metadata;
  const finalizers = sent && 'finalizers' in sent ? sent.finalizers : meta.finalizers;
  return (finalizers ?? []).length === 0 ? 'gone' : 'written';
}

function newer(version: string | undefined, than: string): boolean {
  if (!version || !/^\d+$/.test(version) || !/^\d+$/.test(than)) return false;
  return BigInt(version) > BigInt(than);
}
