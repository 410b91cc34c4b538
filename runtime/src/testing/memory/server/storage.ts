/**
 * The memory API server's storage: objects per resource, one global resourceVersion
 * counter (etcd's revision), and per resource a bounded history of changes that watches
 * replay from, as the API server's watch cache keeps one. A watch or list from a
 * resourceVersion older than that history answers 410 Expired, so clients' relist paths run.
 */

/** A stored object: plain JSON, owned by the storage (callers get copies). */
export type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A JSON object (not null, not an array): what a field of an object kind holds. */
export function isObject(value: unknown): value is Obj {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export type ChangeType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** One change, as the watch cache records it: the object after the change, and before it. */
export interface Change {
  rv: number;
  type: ChangeType;
  /** `namespace/name` (namespace empty for cluster-scoped objects). */
  key: string;
  object: Obj;
  previous: Obj | undefined;
}

/** Storage of one resource (all served versions of a CRD share one: the stored form has one apiVersion per object). */
export interface ResourceStore {
  objects: Map<string, Obj>;
  history: Change[];
  /** Changes dropped from the front of the history: a watch from before the oldest kept one is 410. */
  trimmed: boolean;
}

export interface Storage {
  /** The last resourceVersion handed out; 0 before the first write. */
  revision(): number;
  store(resourceKey: string): ResourceStore;
  /** Records a write under the next resourceVersion, sets it on `object` and notifies listeners. */
  write(resourceKey: string, key: string, type: ChangeType, object: Obj, previous: Obj | undefined): Change;
  /** Hears every change after it is stored (watches, the garbage collector, the namespace controller). */
  listen(listener: (resourceKey: string, change: Change) => void): () => void;
  /** Where `uid` is stored, if anywhere. */
  byUid(uid: string): { resourceKey: string; key: string } | undefined;
}

export const objectKey = (namespace: string | undefined, name: string): string => `${namespace ?? ''}/${name}`;

/** Creates empty storage; `historySize` bounds each resource's change history (the watch cache's capacity). */
export function createStorage(historySize: number): Storage {
  let rv = 0;
  const stores = new Map<string, ResourceStore>();
  const listeners = new Set<(resourceKey: string, change: Change) => void>();
  const uids = new Map<string, { resourceKey: string; key: string }>();

  const store = (resourceKey: string): ResourceStore => {
    let found = stores.get(resourceKey);
    if (!found) {
      found = { objects: new Map(), history: [], trimmed: false };
      stores.set(resourceKey, found);
    }
    return found;
  };

  return {
    revision: () => rv,
    store,
    write(resourceKey, key, type, object, previous) {
      const target = store(resourceKey);
      rv += 1;
      object.metadata.resourceVersion = String(rv);
      if (type === 'DELETED') {
        target.objects.delete(key);
        uids.delete(object.metadata.uid);
      } else {
        target.objects.set(key, object);
        uids.set(object.metadata.uid, { resourceKey, key });
      }
      const change: Change = { rv, type, key, object, previous };
      target.history.push(change);
      if (target.history.length > historySize) {
        target.history.splice(0, target.history.length - historySize);
        target.trimmed = true;
      }
      for (const listener of listeners) listener(resourceKey, change);
      return change;
    },
    listen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    byUid: (uid) => uids.get(uid),
  };
}

/**
 * The objects of `store` as they were at resourceVersion `rv`, rebuilt by undoing the
 * history after it; undefined when the history no longer reaches back that far.
 */
export function objectsAt(store: ResourceStore, rv: number, current: number): Map<string, Obj> | undefined {
  if (rv >= current) return store.objects;
  const oldest = oldestWatchable(store);
  if (oldest !== undefined && rv < oldest) return undefined;
  const undo = store.history.filter((change) => change.rv > rv);
  const objects = new Map(store.objects);
  for (const change of undo.reverse()) {
    if (change.previous === undefined) objects.delete(change.key);
    else objects.set(change.key, change.previous);
  }
  return objects;
}

/** The resourceVersion below which a watch of `store` cannot start (410), or undefined when it reaches back to the start. */
export function oldestWatchable(store: ResourceStore): number | undefined {
  if (!store.trimmed || store.history.length === 0) return undefined;
  return store.history[0]!.rv - 1;
}
