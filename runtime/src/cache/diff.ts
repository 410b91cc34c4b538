import type { KubeObject } from '../object.js';
import { keyOf, type Store } from './store.js';

/** What a relist changed compared with the store: the events an informer owes its handlers. */
export interface RelistDiff<T> {
  added: T[];
  /** `[old, new]` pairs whose resourceVersion differs. */
  updated: [T, T][];
  /** Objects the store holds that the list no longer has: deletions the watch missed. */
  deleted: T[];
  /** Objects present in both with the same resourceVersion: the store keeps its own copy. */
  unchanged: number;
}

/**
 * Compares a fresh list with the objects the store holds. An object whose resourceVersion
 * did not change produces no event, so a relist after 410 Gone neither drops nor repeats
 * anything a handler has already seen.
 */
export function diffRelist<T extends KubeObject>(store: Pick<Store<T>, 'get' | 'keys'>, items: T[]): RelistDiff<T> {
  const diff: RelistDiff<T> = { added: [], updated: [], deleted: [], unchanged: 0 };
  const listed = new Set<string>();
  for (const item of items) {
    const key = keyOf(item);
    listed.add(key);
    const old = store.get(key);
    if (!old) diff.added.push(item);
    else if (old.metadata?.resourceVersion !== item.metadata?.resourceVersion) diff.updated.push([old, item]);
    else diff.unchanged++;
  }
  diff.deleted = unlisted(store, listed);
  return diff;
}

/** The objects the store holds under keys a complete list did not name: deletions the watch missed. */
export function unlisted<T extends KubeObject>(store: Pick<Store<T>, 'get' | 'keys'>, listed: ReadonlySet<string>): T[] {
  const gone: T[] = [];
  for (const key of store.keys()) {
    if (listed.has(key)) continue;
    const old = store.get(key);
    if (old) gone.push(old);
  }
  return gone;
}
