import type { Kind } from '../api/kind.js';
import type { Informer } from '../cache/types.js';
import { objectKey, type DeepReadonly, type KubeObject } from '../object.js';
import { sleep } from './sleep.js';

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
 * a controller from creating it twice.
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
      const deadline = performance.now() + waitMs;
      for (let pause = 2; ; pause = Math.min(50, pause * 2)) {
        let behind = false;
        for (const [key, entry] of pending) {
          if (name !== undefined ? key !== objectKey(kind.namespaced ? namespace : undefined, name) : namespace !== undefined && entry.namespace !== namespace) continue;
          const cached = informer.get(entry.name, entry.namespace);
          if (reflects(entry, cached)) {
            pending.delete(key);
            size--;
          } else {
            behind = true;
          }
        }
        if (!behind) return true;
        if (performance.now() >= deadline || signal?.aborted) return false;
        await sleep(pause, signal);
      }
    },
  };
}

function newer(version: string | undefined, than: string): boolean {
  if (!version || !/^\d+$/.test(version) || !/^\d+$/.test(than)) return false;
  return BigInt(version) > BigInt(than);
}
