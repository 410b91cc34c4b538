import { readOnly, type KubeObject } from '../object.js';
import { diffRelist, type RelistDiff } from './diff.js';
import { keyOf, type Store } from './store.js';
import type { EventHandler } from './types.js';
import type { WatcherOutput } from './watcher.js';

/** Applies a watcher's output to a store (kube-rs's reflector), then tells the handlers. */
export interface Reflector<T extends KubeObject> {
  /** Returns the difference a list made to the store, for logs; nothing for a watch event. */
  apply(output: WatcherOutput<T>): RelistDiff<T> | undefined;
}

/**
 * `prepare` readies each object before it is stored (strips managedFields, the user's
 * transform); `emit` hands an event to every handler after the store has taken it. A
 * list replaces the store's content and emits only the difference, so a relist neither
 * drops nor repeats an event; a watch event for a version the store already holds emits
 * nothing.
 */
export function createReflector<T extends KubeObject>(store: Store<T>, prepare: (object: T) => T, emit: (deliver: (handler: EventHandler<T>) => void) => void): Reflector<T> {
  // Objects of a later list are changes the watch missed, not the initial list.
  let initialList = true;
  return {
    apply(output) {
      if (output.type === 'listed') {
        const initial = initialList;
        initialList = false;
        const diff = diffRelist(store, output.items.map(prepare));
        for (const object of diff.added) store.put(object);
        for (const [, object] of diff.updated) store.put(object);
        for (const object of diff.deleted) store.remove(keyOf(object));
        for (const object of diff.added) emit((h) => h.add?.(readOnly(object), initial));
        for (const [old, object] of diff.updated) emit((h) => h.update?.(readOnly(old), readOnly(object)));
        for (const object of diff.deleted) emit((h) => h.delete?.(readOnly(object)));
        return diff;
      }
      const { type, object } = output.event;
      if (type === 'BOOKMARK') return undefined;
      const prepared = prepare(object);
      const key = keyOf(prepared);
      if (type === 'DELETED') {
        if (store.remove(key)) emit((h) => h.delete?.(readOnly(prepared)));
        return undefined;
      }
      const old = store.get(key);
      if (!old || old.metadata?.resourceVersion !== prepared.metadata?.resourceVersion) {
        store.put(prepared);
        if (old) emit((h) => h.update?.(readOnly(old), readOnly(prepared)));
        else emit((h) => h.add?.(readOnly(prepared), false));
      }
      return undefined;
    },
  };
}
