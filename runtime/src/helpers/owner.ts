import type { OwnerReference } from '../api/index.js';
import { apiVersionOf, type Kind } from '../api/kind.js';
import { groupOf } from '../api/group.js';
import type { DeepReadonly, KubeObject } from '../object.js';

/** `setControllerReference` found another controller already owning the object. */
export class AlreadyOwnedError extends Error {
  override readonly name = 'AlreadyOwnedError';
  /** The controller reference that is there already. */
  readonly owner: DeepReadonly<OwnerReference>;

  constructor(object: KubeObject, owner: DeepReadonly<OwnerReference>) {
    super(`${describe(object)} is already controlled by ${owner.kind} ${JSON.stringify(owner.name)}`);
    this.owner = owner;
  }
}

/**
 * Makes `owner` the controller of `object`: an owner reference with `controller: true` and
 * `blockOwnerDeletion: true`, so the garbage collector deletes `object` with its owner
 * and `Owns()` watches map its changes to the owner. Changes `object` in place and
 * returns it. Throws {@link AlreadyOwnedError} when another controller owns it, and an
 * error for references the API server would not honour (cross-namespace, a cluster-scoped
 * object under a namespaced owner, an owner never stored).
 */
export function setControllerReference<T extends KubeObject>(owner: DeepReadonly<KubeObject>, ownerKind: Kind, object: T): T {
  const reference = referenceTo(owner, ownerKind, object);
  const existing = controllerOf(object);
  if (existing && !sameOwner(existing, reference)) throw new AlreadyOwnedError(object, existing);
  upsert(object, { ...reference, controller: true, blockOwnerDeletion: true });
  return object;
}

/**
 * Adds `owner` to `object`'s owner references without making it the controller (the
 * object is garbage-collected once all its owners are gone). An existing reference to the
 * same owner keeps its controller flags. Changes `object` in place and returns it.
 */
export function setOwnerReference<T extends KubeObject>(owner: DeepReadonly<KubeObject>, ownerKind: Kind, object: T): T {
  const reference = referenceTo(owner, ownerKind, object);
  const existing = object.metadata?.ownerReferences?.find((ref) => sameOwner(ref, reference));
  upsert(object, {
    ...reference,
    ...(existing?.controller !== undefined && { controller: existing.controller }),
    ...(existing?.blockOwnerDeletion !== undefined && { blockOwnerDeletion: existing.blockOwnerDeletion }),
  });
  return object;
}

/** The owner reference marked `controller: true`, if any. */
export function controllerOf(object: DeepReadonly<KubeObject>): DeepReadonly<OwnerReference> | undefined {
  return object.metadata?.ownerReferences?.find((ref) => ref.controller === true);
}

function referenceTo(owner: DeepReadonly<KubeObject>, ownerKind: Kind, object: KubeObject): OwnerReference {
  const name = owner.metadata?.name;
  const uid = owner.metadata?.uid;
  if (!name || !uid) {
    throw new Error(`owner ${ownerKind.kind} ${JSON.stringify(name ?? '')} has no uid: use the object as read from or created in the API server`);
  }
  const ownerNamespace = owner.metadata?.namespace;
  const objectNamespace = object.metadata?.namespace;
  if (ownerNamespace) {
    if (!objectNamespace) {
      throw new Error(`${describe(object)} is cluster-scoped and cannot be owned by namespaced ${ownerKind.kind} ${ownerNamespace}/${name}`);
    }
    if (objectNamespace !== ownerNamespace) {
      throw new Error(`${describe(object)} cannot be owned by ${ownerKind.kind} ${ownerNamespace}/${name}: owner references across namespaces are not allowed`);
    }
  }
  return { apiVersion: apiVersionOf(ownerKind), kind: ownerKind.kind, name, uid };
}

/** Same owner: same group, kind and name (the version may differ), as the garbage collector sees it. */
function sameOwner(a: DeepReadonly<OwnerReference>, b: OwnerReference): boolean {
  return groupOf(a.apiVersion) === groupOf(b.apiVersion) && a.kind === b.kind && a.name === b.name;
}


function upsert(object: KubeObject, reference: OwnerReference): void {
  const metadata = (object.metadata ??= {});
  const references = (metadata.ownerReferences ??= []);
  const index = references.findIndex((ref) => sameOwner(ref, reference));
  if (index >= 0) references[index] = reference;
  else references.push(reference);
}

function describe(object: DeepReadonly<KubeObject>): string {
  const name = object.metadata?.name ?? object.metadata?.generateName ?? '';
  const where = object.metadata?.namespace ? `${object.metadata.namespace}/${name}` : name;
  return `${object.kind ?? 'object'} ${where}`;
}
