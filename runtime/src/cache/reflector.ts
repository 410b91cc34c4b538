import { readOnly, type KubeObject } from '../object.js';
import { diffRelist, unlisted, type RelistDiff } from './diff.js';
import { keyOf, type Store } from './store.js';
import type { EventHandler } from './types.js';
import type { WatcherOutput } from './watcher.js';

/** Applies a watcher's output to a store (kube-rs's reflector), then tells the handlers. */
export interface Reflector<T extends KubeObject> {
  /** Returns the difference a complete list made to the store, for logs; nothing otherwise. */
  apply(output: WatcherOutput<T>): RelistDiff<T> | undefined;
}

/**
 * `prepare` readies each object before it is stored (strips managedFields, the user's
 * transform); `emit` hands an event to every handler after the store has taken it. A
 * list replaces the store's content and emits only the difference, so a relist neither
 * drops nor repeats an event; a watch event for a version the store already holds emits
 * nothing. A streaming list is applied object by object as it arrives (new and changed
 * objects at once); the objects it did not name are removed when it ends.
 */
export function createReflector<T extends KubeObject>(store: Store<T>, prepare: (object: T) => T, emit: (deliver: (handler: EventHandler<T>) => void) => void): Reflector<T> {
  // Objects of a later list are changes the watch missed, not the initial list.
  let initialList = true;
  /** The streaming list in progress: the keys it named so far, and what it changed. */
  let stream: { named: Set<string>; diff: RelistDiff<T> } | undefined;

  /** Stores one object of a streaming list; emits its add or update, if it is new or changed. */
  const applyStreamed = (object: T, diff: RelistDiff<T>): void => {
    const old = store.get(keyOf(object));
    if (old && old.metadata?.resourceVersion === object.metadata?.resourceVersion) {
      diff.unchanged++;
      return;
    }
    store.put(object);
    if (old) {
      diff.updated.push([old, object]);
      emit((h) => h.update?.(readOnly(old), readOnly(object)));
    } else {
      diff.added.push(object);
      const initial = initialList;
      emit((h) => h.add?.(readOnly(object), initial));
    }
  };

  return {
    apply(output) {
      switch (output.type) {
        case 'listed': {
          stream = undefined;
          const diff = diffRelist(store, output.items.map(prepare));
          // The store takes the whole list before any handler hears of it.
          for (const object of diff.added) store.put(object);
          for (const [, object] of diff.updated) store.put(object);
          for (const object of diff.deleted) store.remove(keyOf(object));
          const initial = initialList;
          initialList = false;
          for (const object of diff.added) emit((h) => h.add?.(readOnly(object), initial));
          for (const [old, object] of diff.updated) emit((h) => h.update?.(readOnly(old), readOnly(object)));
          for (const object of diff.deleted) emit((h) => h.delete?.(readOnly(object)));
          return diff;
        }
        case 'streamStarted':
          // A stream broken off before its end left its objects stored (each was real); the
          // next list, streamed or paged, decides what is gone.
          stream = { named: new Set(), diff: { added: [], updated: [], deleted: [], unchanged: 0 } };
          return undefined;
        case 'streamed': {
          if (!stream) return undefined;
          const object = prepare(output.object);
          stream.named.add(keyOf(object));
          applyStreamed(object, stream.diff);
          return undefined;
        }
        case 'streamEnded': {
          if (!stream) return undefined;
          const { named, diff } = stream;
          stream = undefined;
          initialList = false;
          diff.deleted = unlisted(store, named);
          for (const object of diff.deleted) store.remove(keyOf(object));
          for (const object of diff.deleted) emit((h) => h.delete?.(readOnly(object)));
          return diff;
        }
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
