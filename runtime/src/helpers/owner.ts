import type { OwnerReference } from '../api/index.js';
import { apiVersionOf, type Kind } from '../api/kind.js';
import { groupOf } from '../api/group.js';
import type { DeepReadonly, KubeObject } from '../object.js';

/**
 * An object is controlled by another owner than the one that would control it:
 * `setControllerReference` and a reconcile's `ctx.apply` / `ctx.delete` refuse it, as
 * controller-runtime's `SetControllerReference` does. The message names both owners.
 */
export class AlreadyOwnedError extends Error {
  override readonly name = 'AlreadyOwnedError';
  /** The controller reference that is there already. */
  readonly owner: DeepReadonly<OwnerReference>;
  /** The owner that was refused, when known. */
  readonly claimant: DeepReadonly<OwnerReference> | undefined;

  constructor(object: DeepReadonly<KubeObject>, owner: DeepReadonly<OwnerReference>, claimant?: DeepReadonly<OwnerReference>) {
    const refused = claimant ? `: ${claimant.kind} ${JSON.stringify(claimant.name)} may not take it over` : '';
    super(`${describe(object)} is already controlled by ${owner.kind} ${JSON.stringify(owner.name)}${refused}`);
    this.owner = owner;
    this.claimant = claimant;
  }
}

/**
 * An object exists and no controller owns it: a reconcile's `ctx.apply` / `ctx.delete`
 * leave it alone unless the call says `adopt: true` (see {@link checkControl}).
 */
export class NotOwnedError extends Error {
  override readonly name = 'NotOwnedError';
  /** The owner that was refused. */
  readonly claimant: DeepReadonly<OwnerReference>;

  constructor(object: DeepReadonly<KubeObject>, claimant: DeepReadonly<OwnerReference>) {
    super(`${describe(object)} exists and no controller owns it: ${claimant.kind} ${JSON.stringify(claimant.name)} adopts it only when asked to (adopt: true)`);
    this.claimant = claimant;
  }
}

/**
 * Whether `owner` may write `existing` (the live object, undefined when there is none) as
 * its controller: throws {@link AlreadyOwnedError} when another controller owns it, and
 * {@link NotOwnedError} when no controller does and `adopt` is not set. The one rule behind
 * `ctx.apply` and `ctx.delete`.
 *
 * Adopt only what is unmistakably yours: the Deployment and ReplicaSet controllers adopt a
 * ReplicaSet or Pod only when it matches their selector and no other controller owns it,
 * so an object someone else made under the same name is never rewritten, nor garbage-
 * collected with your object.
 *
 * @example
 * const live = await client.get(kinds.ConfigMap, 'web-config', 'shop');
 * checkControl(store, BookStore, live, { adopt: live?.metadata.labels?.app === 'web' });
 */
export function checkControl(owner: DeepReadonly<KubeObject>, ownerKind: Kind, existing: DeepReadonly<KubeObject> | undefined, options: { adopt?: boolean } = {}): void {
  if (!existing) return;
  const reference = referenceTo(owner, ownerKind, existing as KubeObject);
  const controller = controllerOf(existing);
  if (controller && !sameOwner(controller, reference)) throw new AlreadyOwnedError(existing, controller, reference);
  if (!controller && !options.adopt) throw new NotOwnedError(existing, reference);
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
  if (existing && !sameOwner(existing, reference)) throw new AlreadyOwnedError(object, existing, reference);
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
