import type { ObjectMeta } from '../api/index.js';
import type { KubeObject } from '../object.js';

/**
 * The same string as `value`, but V8's one instance of it: property keys live in V8's
 * string table, so the key of a one-property object is the canonical copy, shared by
 * every object that holds an equal string. The table is weak, so nothing is kept alive
 * that no object uses any more. (Integer-like strings come back as fresh copies: no gain,
 * no harm.)
 */
export function intern(value: string): string {
  return Object.keys({ [value]: 0 })[0]!;
}

/** Values longer than this (as JSON) are not worth a lookup: big annotations are rarely repeated. */
const MAX_SHARED_JSON = 1024;
/** Distinct shared values remembered before the pool starts over, so churn cannot grow it. */
const MAX_POOL = 1024;

type Compactor = <T extends KubeObject>(object: T) => T;

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
    Object.freeze(value);
  }
  return value;
}

/** Interns the string values of a record (labels, an owner reference), leaving others as they are. */
function internRecord(record: Record<string, unknown> | undefined): void {
  for (const key in record) {
    const value = record[key];
    if (typeof value === 'string') record[key] = intern(value);
  }
}

/** Absent fields stay absent: adding one, even as undefined, would change the object. */
function internMeta(meta: ObjectMeta): void {
  if (meta.namespace) meta.namespace = intern(meta.namespace);
  if (meta.generateName) meta.generateName = intern(meta.generateName);
  // Second precision: objects created in one burst (the Pods of a scale-up, an operator's
  // children) share it.
  if (meta.creationTimestamp) meta.creationTimestamp = intern(meta.creationTimestamp);
  internRecord(meta.labels);
  for (const ref of meta.ownerReferences ?? []) internRecord(ref as unknown as Record<string, string>);
  if (meta.finalizers) meta.finalizers = meta.finalizers.map((finalizer) => intern(finalizer));
}

/**
 * Makes a freshly parsed object smaller before the cache keeps it (managedFields are
 * already gone): interns the strings many objects repeat (namespace, labels, owner
 * references, finalizers, creation second).
 *
 * With `share` (metadata-only informers) it goes further: equal labels, annotations,
 * owner references and finalizers of different objects become one shared value (an
 * operator's children usually carry identical ones), which only works because every
 * object such an informer keeps is deeply frozen. Sharing looks back over a bounded pool
 * of recent values, so it costs no memory that outlives the objects.
 */
export function createCompactor(options: { share: boolean }): Compactor {
  let pool = new Map<string, unknown>();

  function shared<V>(value: V): V {
    const json = JSON.stringify(value);
    if (json.length > MAX_SHARED_JSON) return deepFreeze(value);
    const known = pool.get(json) as V | undefined;
    if (known !== undefined) return known;
    if (pool.size >= MAX_POOL) pool = new Map();
    pool.set(json, deepFreeze(value));
    return value;
  }

  return (object) => {
    const meta = object.metadata;
    // A transform may hand back an object it froze itself: nothing to rewrite there.
    if (!meta || Object.isFrozen(meta)) return options.share ? deepFreeze(object) : object;
    internMeta(meta);
    if (!options.share) return object;
    if (meta.labels) meta.labels = shared(meta.labels);
    if (meta.annotations) meta.annotations = shared(meta.annotations);
    if (meta.ownerReferences) meta.ownerReferences = shared(meta.ownerReferences);
    if (meta.finalizers) meta.finalizers = shared(meta.finalizers);
    return deepFreeze(object);
  };
}
