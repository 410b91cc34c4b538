import { randomUUID } from 'node:crypto';
import type { Kind } from '../api/kind.js';
import type { ApplyObject, ApplyOptions, Client, DeleteOptions } from '../client/client.js';
import type { DeepReadonly, KubeObject, Stored } from '../object.js';

/** Throws when the live object (undefined: there is none) is not the writer's to change. */
export type WriteCheck = (live: DeepReadonly<Stored<KubeObject>> | undefined) => void;

/**
 * Server-side apply of `object` (named by its metadata) once `check` accepts the live
 * object, read through `client` (its cache when it has one), and only onto that object:
 * forced, but never onto an object `check` did not see.
 *
 * The check and the apply are two requests: in between the object may be deleted and made
 * anew by someone else, or made where there was none (or where the cache had not seen it
 * yet), and a forced apply would take it over. So the apply carries a uid: the API server
 * refuses to change an existing object's uid and gives a new object its own. The uid of the
 * object checked makes the apply fail on any other object; a fresh one, when there was
 * none, makes it fail on any object at all while a create goes through (a create-only
 * apply). A resourceVersion precondition instead would fail on every change others made
 * since the cache saw the object, and a non-forced apply would still merge into an object
 * nobody owns. When the apply fails, the object there now is checked again, uncached, so
 * the refusal says why.
 *
 * @example
 * await applyChecked(client, kinds.ConfigMap, { metadata: { name: 'web-config', namespace: 'shop' }, data }, (live) => {
 *   if (live && live.metadata.labels?.app !== 'web') throw new Error('web-config is not ours');
 * });
 */
export async function applyChecked<T extends KubeObject, N extends boolean>(
  client: Client,
  kind: Kind<T, N>,
  object: ApplyObject<T>,
  check: WriteCheck,
  options: ApplyOptions = {},
): Promise<Stored<T, N>> {
  const metadata = (object as KubeObject).metadata ?? {};
  const live = await readChecked(client, kind, metadata, check);
  const guarded = { ...object, metadata: { ...metadata, uid: live?.metadata.uid ?? randomUUID() } } as ApplyObject<T>;
  try {
    return await client.apply(kind, guarded, options);
  } catch (error) {
    await readChecked(client.uncached(), kind, metadata, check);
    throw error;
  }
}

/**
 * Deletes the object named by `object.metadata` once `check` accepts it, and only that one
 * (a uid precondition): one deleted and made anew by someone else meanwhile stays. A
 * missing object is fine.
 *
 * @example
 * await deleteChecked(client, kinds.ConfigMap, { metadata: { name: 'web-config', namespace: 'shop' } }, (live) => checkControl(store, BookStore, live));
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
