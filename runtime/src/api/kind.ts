/**
 * A kind at run time: what the client, the cache and controllers take to address objects
 * of type `T`. Interfaces vanish when TypeScript compiles, so each API type file pairs its
 * root interface with a `Kind` constant of the same name. `Namespaced` repeats the scope
 * in the type (`true` or `false`) so that objects read back have a required
 * `metadata.namespace` exactly when the kind is namespaced; left out, it is `boolean`.
 *
 * @example
 * export interface DemoVolume {
 *   metadata?: ObjectMeta;
 *   spec: DemoVolumeSpec;
 * }
 * export const DemoVolume = defineKind<DemoVolume, true>({
 *   ...groupVersion,
 *   kind: 'DemoVolume',
 *   plural: 'demovolumes',
 *   namespaced: true,
 * });
 */
export interface Kind<T = unknown, Namespaced extends boolean = boolean> {
  /** API group; `''` for the core group. */
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  /** The resource name in URLs, e.g. `demovolumes`. */
  readonly plural: string;
  readonly namespaced: Namespaced;
  /** Carries `T` for inference; never set. */
  readonly __object?: T;
}

/** Declares the run-time handle of a kind; see {@link Kind}. */
export function defineKind<T, Namespaced extends boolean = boolean>(kind: Omit<Kind<T, Namespaced>, '__object'>): Kind<T, Namespaced> {
  return Object.freeze({ ...kind });
}

/** `group/version`, or `version` alone for the core group: the object's `apiVersion`. */
export function apiVersionOf(kind: Pick<Kind, 'group' | 'version'>): string {
  return kind.group === '' ? kind.version : `${kind.group}/${kind.version}`;
}
