import type { ObjectMeta } from './api/index.js';

/** What every Kubernetes object has: the minimum the runtime relies on. */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
}

/** `namespace/name`, or `name` for cluster-scoped objects: the work queue's key. */
export function objectKey(namespace: string | undefined, name: string): string {
  return namespace ? `${namespace}/${name}` : name;
}

/**
 * The metadata of an object the API server stored: what it always sets is required.
 * `Namespaced` is the kind's scope when its handle declares it (`defineKind<Foo, true>`);
 * otherwise `namespace` stays optional.
 *
 * @example
 * const at = (meta: StoredMeta<true>) => `${meta.namespace}/${meta.name}@${meta.resourceVersion}`;
 */
export type StoredMeta<Namespaced extends boolean = boolean> = ObjectMeta &
  Required<Pick<ObjectMeta, 'name' | 'uid' | 'resourceVersion' | 'generation' | 'creationTimestamp'>> &
  (boolean extends Namespaced ? unknown : Namespaced extends true ? { namespace: string } : unknown);

/**
 * `T` as the API server stored it: `metadata` is there with `name`, `uid`,
 * `resourceVersion`, `generation` and `creationTimestamp` (and `namespace` for a kind
 * declared namespaced), so code reading it needs no `!` or `?.`. Objects a reconcile, an
 * informer or a handler hands in have this type.
 *
 * `generation` is set on every custom resource and on built-in kinds with a spec; a few
 * built-in kinds without one (ConfigMap, Secret) carry none despite the type.
 *
 * @example
 * function labelOf(podSet: Stored<PodSet>): string {
 *   return `${podSet.metadata.namespace}/${podSet.metadata.name}`;
 * }
 */
export type Stored<T extends KubeObject, Namespaced extends boolean = boolean> = T & { metadata: StoredMeta<Namespaced> };

/**
 * `T` with every property, array and record read-only, all the way down: the type of
 * objects shared with the cache, which a reconcile must not change (copy with
 * `structuredClone` to build on one). Values of `T` are assignable to it, so functions
 * taking `DeepReadonly<X>` accept both.
 *
 * @example
 * function replicasOf(podSet: DeepReadonly<PodSet>): number {
 *   return podSet.spec.replicas; // podSet.spec.replicas = 3 does not compile
 * }
 */
export type DeepReadonly<T> = T extends (...args: never[]) => unknown
  ? T
  : T extends readonly (infer U)[]
    ? readonly DeepReadonly<U>[]
    : T extends object
      ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
      : T;

/** `object`, which the API server stored, typed as the read-only view the cache hands out (no copy, no freeze). */
export function readOnly<T extends KubeObject>(object: T): DeepReadonly<Stored<T>> {
  return object as DeepReadonly<Stored<T>>;
}
