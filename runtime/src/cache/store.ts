import { objectKey, type KubeObject } from '../object.js';
import type { ListOptions } from './types.js';

type IndexFn<T> = (object: T) => string[];

/** value → keys of the objects indexed under it. */
type Index = Map<string, Set<string>>;

/**
 * An informer's objects keyed by `namespace/name`, with a namespace index, a label index
 * (`key=value` → objects) and user indexes. Objects are stored as given, never copied.
 */
export interface Store<T extends KubeObject> {
  get(key: string): T | undefined;
  /** Inserts or replaces; returns the object it replaced. */
  put(object: T): T | undefined;
  /** Removes by key; returns the object it removed. */
  remove(key: string): T | undefined;
  list(options?: ListOptions): T[];
  /** Every object, in no particular order. */
  values(): IterableIterator<T>;
  keys(): IterableIterator<string>;
  readonly size: number;
  /** Adds a named index over the objects present and to come. */
  addIndex(name: string, fn: IndexFn<T>): void;
}

export function keyOf(object: KubeObject): string {
  return objectKey(object.metadata?.namespace, object.metadata?.name ?? '');
}

export function createStore<T extends KubeObject>(): Store<T> {
  const objects = new Map<string, T>();
  const byNamespace: Index = new Map();
  const byLabel: Index = new Map();
  const userIndexes = new Map<string, { fn: IndexFn<T>; index: Index }>();

  function link(index: Index, value: string, key: string): void {
    let keys = index.get(value);
    if (!keys) index.set(value, (keys = new Set()));
    keys.add(key);
  }

  function unlink(index: Index, value: string, key: string): void {
    const keys = index.get(value);
    if (!keys) return;
    keys.delete(key);
    if (keys.size === 0) index.delete(value);
  }

  function indexObject(object: T, key: string, add: boolean): void {
    const change = add ? link : unlink;
    const meta = object.metadata;
    change(byNamespace, meta?.namespace ?? '', key);
    for (const label in meta?.labels) change(byLabel, `${label}=${meta!.labels[label]}`, key);
    for (const { fn, index } of userIndexes.values()) {
      for (const value of fn(object)) change(index, value, key);
    }
  }

  function matches(object: T, options: ListOptions): boolean {
    const meta = object.metadata;
    if (options.namespace !== undefined && (meta?.namespace ?? '') !== options.namespace) return false;
    for (const label in options.labels) {
      if (meta?.labels?.[label] !== options.labels[label]) return false;
    }
    if (options.index) {
      const user = userIndexes.get(options.index.name);
      if (!user || !user.fn(object).includes(options.index.value)) return false;
    }
    return true;
  }

  /** The smallest key set an option narrows to, or undefined to scan everything. */
  function candidates(options: ListOptions): Set<string> | undefined {
    const sets: (Set<string> | undefined)[] = [];
    if (options.namespace !== undefined) sets.push(byNamespace.get(options.namespace));
    for (const label in options.labels) sets.push(byLabel.get(`${label}=${options.labels[label]}`));
    if (options.index) {
      const user = userIndexes.get(options.index.name);
      if (!user) throw new Error(`no index named ${JSON.stringify(options.index.name)}: register it with addIndex first`);
      sets.push(user.index.get(options.index.value));
    }
    if (sets.length === 0) return undefined;
    let smallest: Set<string> | undefined;
    for (const set of sets) {
      if (!set) return new Set();
      if (!smallest || set.size < smallest.size) smallest = set;
    }
    return smallest;
  }

  return {
    get: (key) => objects.get(key),

    put(object) {
      const key = keyOf(object);
      const previous = objects.get(key);
      if (previous) indexObject(previous, key, false);
      objects.set(key, object);
      indexObject(object, key, true);
      return previous;
    },

    remove(key) {
      const previous = objects.get(key);
      if (!previous) return undefined;
      indexObject(previous, key, false);
      objects.delete(key);
      return previous;
    },

    list(options = {}) {
      const keys = candidates(options);
      const result: T[] = [];
      if (!keys) {
        for (const object of objects.values()) if (matches(object, options)) result.push(object);
        return result;
      }
      for (const key of keys) {
        const object = objects.get(key);
        if (object && matches(object, options)) result.push(object);
      }
      return result;
    },

    values: () => objects.values(),
    keys: () => objects.keys(),

    get size() {
      return objects.size;
    },

    addIndex(name, fn) {
      if (userIndexes.has(name)) throw new Error(`index ${JSON.stringify(name)} exists already`);
      const index: Index = new Map();
      userIndexes.set(name, { fn, index });
      for (const [key, object] of objects) {
        for (const value of fn(object)) link(index, value, key);
      }
    },
  };
}
