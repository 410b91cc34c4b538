import type { Kind } from '../api/kind.js';
import type { Client, MergePatch } from '../client/client.js';
import type { KubeObject } from '../object.js';
import { deepEqual, mergePatchBetween } from './merge-patch.js';

/** What {@link createOrUpdate} / {@link createOrPatch} did, as controller-runtime's `OperationResult`. */
export type OperationResult = 'created' | 'updated' | 'unchanged';

/** Sets the fields this controller owns on `object`, the live object or a new one; may be async. */
export type Mutate<T> = (object: T) => void | Promise<void>;

/**
 * Makes the object named by `object.metadata` what `mutate` says, controller-runtime's
 * `CreateOrUpdate`: reads it (from the cache when the client has one), and if it is
 * missing, applies `mutate` to `object` and creates it; otherwise applies `mutate` to a
 * copy of the live object and updates it only when that changed something. The update
 * carries the resourceVersion read, so a stale read fails with a conflict (retry the
 * reconcile) instead of overwriting a newer write. Returns the object as stored.
 */
export async function createOrUpdate<T extends KubeObject>(client: Client, kind: Kind<T>, object: T, mutate: Mutate<T>): Promise<{ result: OperationResult; object: T }> {
  const { name, namespace } = identity(object);
  const live = await client.get(kind, name, namespace);
  if (!live) {
    await mutate(object);
    keepIdentity(object, name, namespace);
    return { result: 'created', object: await client.create(kind, object) };
  }
  const desired = structuredClone(live);
  await mutate(desired);
  keepIdentity(desired, name, namespace);
  if (deepEqual(live, desired)) return { result: 'unchanged', object: live };
  return { result: 'updated', object: await client.update(kind, desired) };
}

/**
 * Like {@link createOrUpdate}, controller-runtime's `CreateOrPatch`, but an existing
 * object is changed with JSON merge patches of exactly what `mutate` changed, the status
 * through the status subresource: fields other writers set meanwhile are left alone.
 */
export async function createOrPatch<T extends KubeObject & { status?: unknown }>(
  client: Client,
  kind: Kind<T>,
  object: T,
  mutate: Mutate<T>,
): Promise<{ result: OperationResult; object: T }> {
  const { name, namespace } = identity(object);
  const live = await client.get(kind, name, namespace);
  if (!live) {
    await mutate(object);
    keepIdentity(object, name, namespace);
    const { status, ...rest } = object;
    let created = await client.create(kind, rest as T);
    if (status !== undefined) created = await client.patchStatus(kind, created, { status } as MergePatch<T>);
    return { result: 'created', object: created };
  }
  const desired = structuredClone(live);
  await mutate(desired);
  keepIdentity(desired, name, namespace);
  const { status: liveStatus, ...liveRest } = live;
  const { status: desiredStatus, ...desiredRest } = desired;
  const patch = mergePatchBetween(liveRest, desiredRest);
  const statusPatch = mergePatchBetween({ status: liveStatus }, { status: desiredStatus });
  let stored = live;
  if (patch) stored = await client.patch(kind, live, patch as MergePatch<T>);
  if (statusPatch) stored = await client.patchStatus(kind, live, statusPatch as MergePatch<T>);
  return { result: patch || statusPatch ? 'updated' : 'unchanged', object: stored };
}

function identity(object: KubeObject): { name: string; namespace: string | undefined } {
  const name = object.metadata?.name;
  if (!name) throw new Error('createOrUpdate: the object needs metadata.name');
  return { name, namespace: object.metadata?.namespace };
}

function keepIdentity(object: KubeObject, name: string, namespace: string | undefined): void {
  if (object.metadata?.name !== name || object.metadata?.namespace !== namespace) {
    throw new Error(`createOrUpdate: mutate must not change the name or namespace of ${namespace ? `${namespace}/` : ''}${name}`);
  }
}
