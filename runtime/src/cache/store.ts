import { objectKey, type KubeObject } from '../object.js';
import type { IndexQuery, ListOptions } from './types.js';

type IndexFn<T> = (object: T) => string[];

/** value → the objects indexed under it. */
type Index<T> = Map<string, Set<T>>;

/**
 * An informer's objects keyed by `namespace/name`, with a label index (`key=value` →
 * objects, built on the first query by label) and user indexes. Objects are stored as
 * given, never copied.
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

/** `namespace/name` (or `name`) back into its parts; names never contain `/`. */
function splitKey(key: string): [namespace: string, name: string] {
  const slash = key.indexOf('/');
  return slash < 0 ? ['', key] : [key.slice(0, slash), key.slice(slash + 1)];
}

function indexQueries(options: ListOptions): readonly IndexQuery[] {
  const { index } = options;
  return index === undefined ? [] : 'name' in index ? [index] : index;
}

function link<T>(index: Index<T>, value: string, object: T): void {
  let objects = index.get(value);
  if (!objects) index.set(value, (objects = new Set()));
  objects.add(object);
}

function unlink<T>(index: Index<T>, value: string, object: T): void {
  const objects = index.get(value);
  if (!objects) return;
  objects.delete(object);
  if (objects.size === 0) index.delete(value);
}

const labelEntries = (object: KubeObject): string[] => {
  const labels = object.metadata?.labels;
  const entries: string[] = [];
  for (const label in labels) entries.push(`${label}=${labels[label]}`);
  return entries;
};

/**
 * Memory per object matters here (an informer may hold every Pod of a cluster), so the
 * store holds each object once in a map per namespace keyed by the object's own
 * `metadata.name` string (no `namespace/name` key strings, and the namespace map doubles
 * as the namespace index), and the indexes hold the objects themselves. The label index
 * is built only once something lists by label: owned kinds are mostly read by owner.
 */
export function createStore<T extends KubeObject>(): Store<T> {
  const byNamespace = new Map<string, Map<string, T>>();
  let size = 0;
  const indexes = new Map<string, { fn: IndexFn<T>; index: Index<T> }>();
  let byLabel: Index<T> | undefined;

  function indexObject(object: T, add: boolean): void {
    const change = add ? link : unlink;
    if (byLabel) for (const entry of labelEntries(object)) change(byLabel, entry, object);
    for (const { fn, index } of indexes.values()) {
      for (const value of fn(object)) change(index, value, object);
    }
  }

  function build(fn: IndexFn<T>): Index<T> {
    const index: Index<T> = new Map();
    for (const object of values()) for (const value of fn(object)) link(index, value, object);
    return index;
  }

  function* values(): IterableIterator<T> {
    for (const objects of byNamespace.values()) yield* objects.values();
  }

  function matches(object: T, options: ListOptions): boolean {
    const meta = object.metadata;
    if (options.namespace !== undefined && (meta?.namespace ?? '') !== options.namespace) return false;
    for (const label in options.labels) {
      if (meta?.labels?.[label] !== options.labels[label]) return false;
    }
    for (const { name, value } of indexQueries(options)) {
      if (!indexes.get(name)!.fn(object).includes(value)) return false;
    }
    return true;
  }

  /** The smallest object set an option narrows to, or undefined to scan everything. */
  function candidates(options: ListOptions): Iterable<T> | undefined {
    const sets: ({ readonly size: number; values(): IterableIterator<T> } | undefined)[] = [];
    if (options.namespace !== undefined) sets.push(byNamespace.get(options.namespace));
    for (const label in options.labels) {
      byLabel ??= build(labelEntries);
      sets.push(byLabel.get(`${label}=${options.labels[label]}`));
    }
    for (const { name, value } of indexQueries(options)) {
      const user = indexes.get(name);
      if (!user) throw new Error(`no index named ${JSON.stringify(name)}: register it with addIndex first`);
      sets.push(user.index.get(value));
    }
    if (sets.length === 0) return undefined;
    let smallest: (typeof sets)[number];
    for (const set of sets) {
      if (!set) return [];
      if (!smallest || set.size < smallest.size) smallest = set;
    }
    return smallest!.values();
  }

  function get(key: string): T | undefined {
    const [namespace, name] = splitKey(key);
    return byNamespace.get(namespace)?.get(name);
  }

  return {
    get,

    put(object) {
      const namespace = object.metadata?.namespace ?? '';
      const name = object.metadata?.name ?? '';
      let objects = byNamespace.get(namespace);
      if (!objects) byNamespace.set(namespace, (objects = new Map()));
      const previous = objects.get(name);
      if (previous) indexObject(previous, false);
      else size++;
      objects.set(name, object);
      indexObject(object, true);
      return previous;
    },

    remove(key) {
      const [namespace, name] = splitKey(key);
      const objects = byNamespace.get(namespace);
      const previous = objects?.get(name);
      if (!objects || !previous) return undefined;
      indexObject(previous, false);
      objects.delete(name);
      if (objects.size === 0) byNamespace.delete(namespace);
      size--;
      return previous;
    },

    list(options = {}) {
      const result: T[] = [];
      for (const object of candidates(options) ?? values()) if (matches(object, options)) result.push(object);
      return result;
    },

    values,

    *keys() {
      for (const [namespace, objects] of byNamespace) {
        for (const name of objects.keys()) yield objectKey(namespace, name);
      }
    },

    get size() {
      return size;
    },

    addIndex(name, fn) {
      if (indexes.has(name)) throw new Error(`index ${JSON.stringify(name)} exists already`);
      indexes.set(name, { fn, index: build(fn) });
    },
  };
}
