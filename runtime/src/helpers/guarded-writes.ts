import type { Kind } from '../api/kind.js';
import type { ManagedFieldsEntry } from '../api/index.js';
import type { ApplyObject, ApplyOptions, Client, DeleteOptions, MergePatch } from '../client/client.js';
import { isAlreadyExists, isConflict } from '../rest/errors.js';
import type { DeepReadonly, KubeObject, Stored } from '../object.js';

/** Throws when the live object (undefined: there is none) is not the writer's to change. */
export type WriteCheck = (live: DeepReadonly<Stored<KubeObject>> | undefined) => void;

/**
 * Server-side apply of `object` (named by its metadata) once `check` accepts the live
 * object, read through `client` (its cache when it has one), and only onto that object:
 * forced, but never onto an object `check` did not see.
 *
 * The check and the write are two requests: in between, the object may be deleted and made
 * anew by someone else, or made where there was none (or where the cache had not seen it
 * yet), and a forced apply would take it over. So the write carries a precondition:
 * - onto an existing object, the apply carries its uid, which the API server refuses to
 *   apply to any other object (a resourceVersion would fail on every change others made
 *   since the cache saw it);
 * - where there was none, server-side apply has no create-only form (a uid names an object
 *   that must exist; without one a non-forced apply still merges into an object nobody
 *   owns), so the object is created, which fails on anything of that name, and the
 *   create's field ownership is then recorded as this manager's apply (in the same
 *   resourceVersion), so that a later apply removes a field it leaves out, as it would
 *   after an apply that created the object.
 * An object that turns up, or a write that fails, has the object there checked again,
 * uncached, so that a refusal says why.
 *
 * @example
 * await applyChecked(
 *   client,
 *   kinds.ConfigMap,
 *   { metadata: { name: 'web-config', namespace: 'shop' }, data },
 *   (live) => {
 *     if (live && live.metadata.labels?.app !== 'web') throw new Error('web-config is not ours');
 *   },
 * );
 */
export async function applyChecked<T extends KubeObject, N extends boolean>(
  client: Client,
  kind: Kind<T, N>,
  object: ApplyObject<T>,
  check: WriteCheck,
  options: ApplyOptions = {},
): Promise<Stored<T, N>> {
  const metadata = (object as KubeObject).metadata ?? {};
  let live = await readChecked(client, kind, metadata, check);
  if (!live) {
    try {
      return await createAsApplied(options.fieldManager ? client.withFieldManager(options.fieldManager) : client, kind, object as T);
    } catch (error) {
      if (!isAlreadyExists(error)) throw error;
      live = await readChecked(client.uncached(), kind, metadata, check);
      // Gone again: the reconcile's retry looks afresh.
      if (!live) throw error;
    }
  }
  const guarded = { ...object, metadata: { ...metadata, uid: live.metadata.uid } } as ApplyObject<T>;
  try {
    return await client.apply(kind, guarded, options);
  } catch (error) {
    await readChecked(client.uncached(), kind, metadata, check);
    throw error;
  }
}

/** Creates `object` and records the fields the create set as applied by the client's field manager. */
async function createAsApplied<T extends KubeObject, N extends boolean>(client: Client, kind: Kind<T, N>, object: T): Promise<Stored<T, N>> {
  const created = await client.create(kind, object);
  const entries = created.metadata.managedFields;
  const mine = (entry: ManagedFieldsEntry) => entry.manager === client.fieldManager && entry.operation === 'Update' && !entry.subresource;
  if (!entries?.some(mine)) return created;
  try {
    const managedFields = entries.map((entry) => (mine(entry) ? { ...entry, operation: 'Apply' } : entry));
    return await client.patch(kind, created, { metadata: { resourceVersion: created.metadata.resourceVersion, managedFields } } as MergePatch<T>);
  } catch (error) {
    // Changed since: the fields stay this manager's update, kept (not removed) should a later apply leave them out.
    if (isConflict(error)) return created;
    throw error;
  }
}

/**
 * Deletes the object named by `object.metadata` once `check` accepts it, and only that one
 * (a uid precondition): one deleted and made anew by someone else meanwhile stays. A
 * missing object is fine.
 *
 * @example
 * await deleteChecked(
 *   client,
 *   kinds.ConfigMap,
 *   { metadata: { name: 'web-config', namespace: 'shop' } },
 *   (live) => checkControl(store, BookStore, live),
 * );
 */
export async function deleteChecked(client: Client, kind: Kind<KubeObject>, object: DeepReadonly<KubeObject>, check: WriteCheck, options: DeleteOptions = {}): Promise<void> {
  const live = await readChecked(client, kind, object.metadata ?? {}, check);
  if (!live) return;
  await client.delete(kind, live, { ...options, preconditions: { uid: live.metadata.uid, ...options.preconditions } });
}

async function readChecked(client: Client, kind: Kind, metadata: DeepReadonly<KubeObject>['metadata'] & object, check: WriteCheck): Promise<Stored<KubeObject> | undefined> {
  // Without a name the write itself fails, saying so.
  if (!metadata.name) return undefined;
  const live = await client.get(kind as Kind<KubeObject>, metadata.name, kind.namespaced ? metadata.namespace : undefined);
  check(live);
  return live;
}
