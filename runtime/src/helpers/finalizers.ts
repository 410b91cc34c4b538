import type { Kind } from '../api/kind.js';
import type { Client, MergePatch } from '../client/client.js';
import { ApiError, isConflict, isNotFound } from '../rest/errors.js';
import type { DeepReadonly, KubeObject } from '../object.js';

/** Conflicts in a row before giving up: another writer that busy is a bug worth surfacing. */
const ATTEMPTS = 5;

/** Whether `object` carries `finalizer`. */
export function hasFinalizer(object: DeepReadonly<KubeObject>, finalizer: string): boolean {
  return object.metadata?.finalizers?.includes(finalizer) ?? false;
}

/**
 * Adds `finalizer` to the object unless it is there, and returns the object as stored.
 * The merge patch is conditional on the object's resourceVersion, so it never drops a
 * finalizer someone else added meanwhile; on a conflict it re-reads the object from the
 * API server and tries again. Throws a NotFound `ApiError` when the object is gone.
 */
export async function ensureFinalizer<T extends KubeObject>(client: Client, kind: Kind<T>, object: DeepReadonly<KubeObject>, finalizer: string): Promise<T> {
  const result = await patchFinalizers(client, kind, object, (current) =>
    hasFinalizer(current, finalizer) ? undefined : [...(current.metadata?.finalizers ?? []), finalizer],
  );
  if (!result) throw gone(kind, object);
  return result;
}

/**
 * Removes `finalizer` from the object if it is there, conflict-safe like
 * {@link ensureFinalizer}, and returns the object as stored, or `undefined` when the
 * object is gone (removing the last finalizer of a deleted object lets it go).
 */
export async function removeFinalizer<T extends KubeObject>(client: Client, kind: Kind<T>, object: DeepReadonly<KubeObject>, finalizer: string): Promise<T | undefined> {
  return patchFinalizers(client, kind, object, (current) =>
    hasFinalizer(current, finalizer) ? (current.metadata?.finalizers ?? []).filter((f) => f !== finalizer) : undefined,
  );
}

/** `change` returns the new finalizer list, or undefined when `current` needs none. */
async function patchFinalizers<T extends KubeObject>(
  client: Client,
  kind: Kind<T>,
  object: DeepReadonly<KubeObject>,
  change: (current: DeepReadonly<KubeObject>) => string[] | undefined,
): Promise<T | undefined> {
  let current: DeepReadonly<KubeObject> | undefined = object;
  for (let attempt = 1; current; attempt++) {
    const finalizers = change(current);
    if (!finalizers) return current as T;
    const patch = { metadata: { finalizers, resourceVersion: current.metadata?.resourceVersion } } as MergePatch<T>;
    try {
      return await client.patch(kind, current, patch);
    } catch (error) {
      if (isNotFound(error)) return undefined;
      if (!isConflict(error) || attempt >= ATTEMPTS) throw error;
    }
    current = await client.uncached().get(kind, current.metadata?.name ?? '', current.metadata?.namespace);
  }
  return undefined;
}

function gone(kind: Kind, object: DeepReadonly<KubeObject>): ApiError {
  const name = object.metadata?.name ?? '';
  const message = `${kind.plural} ${JSON.stringify(name)} not found`;
  return new ApiError(404, { kind: 'Status', status: 'Failure', reason: 'NotFound', code: 404, message }, `PATCH ${kind.plural}/${name}`, message);
}
