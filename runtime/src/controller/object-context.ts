import { randomUUID } from 'node:crypto';
import type { Kind } from '../api/kind.js';
import type { Client } from '../client/index.js';
import { ensureFinalizer, hasFinalizer, removeFinalizer } from '../helpers/finalizers.js';
import { checkControl, setControllerReference } from '../helpers/owner.js';
import type { DeepReadonly, KubeObject, Stored } from '../object.js';
import { statusWriter } from './status-writer.js';
import type { ObjectContext, RequestContext } from './types.js';

/**
 * The context of one object-first reconcile of `object` (of kind `kind`): `base` plus
 * writes that own their children, default to the object's namespace and use `client`
 * (this controller's field manager, bound to the reconcile's signal); `now` is the
 * manager's wall clock, which condition times are stamped with.
 */
export function objectContext<T extends KubeObject>(base: RequestContext, kind: Kind<T>, object: Stored<KubeObject>, now?: () => Date): ObjectContext<T> {
  const { client } = base;
  /** A copy of `child` in the object's namespace (if it names none) and controlled by the object. */
  const owned = <C extends KubeObject>(childKind: Kind<C>, child: DeepReadonly<KubeObject>): C => {
    const copy = structuredClone(child) as C;
    const metadata = (copy.metadata ??= {});
    if (childKind.namespaced && !metadata.namespace && object.metadata.namespace) metadata.namespace = object.metadata.namespace;
    return setControllerReference(object, kind, copy);
  };

  /** The child's live object (from `reader`), after checking this object may write it. */
  const claim = async (childKind: Kind<KubeObject>, child: DeepReadonly<KubeObject>, adopt: boolean | undefined, reader = client): Promise<Stored<KubeObject> | undefined> => {
    const name = child.metadata?.name;
    if (!name) return undefined;
    const namespace = childKind.namespaced ? (child.metadata?.namespace ?? object.metadata.namespace) : undefined;
    const live = await reader.get(childKind, name, namespace);
    checkControl(object, kind, live, { adopt });
    return live;
  };

  return {
    ...base,
    create: (childKind, child) => client.create(childKind, owned(childKind, child)) as never,
    apply: async (childKind, child, options = {}) => {
      const { adopt, ...applyOptions } = options;
      const desired = owned(childKind, child as DeepReadonly<KubeObject>);
      const live = await claim(childKind, desired, adopt);
      // The check above and the apply are two requests: the object may be deleted and made
      // anew by someone else in between, or made where there was none (or the cache had
      // not seen it yet), and a forced apply would take it over. So the apply carries a
      // uid: the API server refuses to change an existing object's uid, and gives a new
      // object its own. The uid of the object checked makes the apply fail on any other
      // object; a fresh one when there was none makes it fail on any object at all (a
      // create-only apply), while a create goes through. A precondition on the
      // resourceVersion instead would fail on every change of others since the cache saw
      // the object, and a non-forced apply would still merge into an object nobody owns.
      desired.metadata!.uid = live?.metadata.uid ?? randomUUID();
      try {
        return (await client.apply(childKind, desired as never, applyOptions)) as never;
      } catch (error) {
        // Refused by the precondition? Then the object there now says why (and throws).
        await claim(childKind, desired, adopt, client.uncached());
        throw error;
      }
    },
    delete: async (childKind, child, options = {}) => {
      const live = await claim(childKind, child, false);
      if (!live) return;
      // Only the object checked: one deleted and made anew meanwhile is someone else's.
      await client.delete(childKind, live, { ...options, preconditions: { uid: live.metadata.uid, ...options.preconditions } });
    },
    status: statusWriter<T>(client, kind, object, now),
    finalize: (name, handlers) => finalize(client, kind, object, name, handlers),
  };
}

/** kube-rs's `finalizer()`: add, then apply; or cleanup, then remove. */
async function finalize<T extends KubeObject>(
  client: Client,
  kind: Kind<T>,
  object: Stored<KubeObject>,
  name: string,
  handlers: Parameters<ObjectContext<T>['finalize']>[1],
): ReturnType<ObjectContext<T>['finalize']> {
  if (!object.metadata.deletionTimestamp) {
    if (!hasFinalizer(object, name)) await ensureFinalizer(client, kind, object, name);
    return handlers.apply();
  }
  // Being deleted: nothing of ours to clean up unless our finalizer is still there.
  if (!hasFinalizer(object, name)) return;
  const result = await handlers.cleanup();
  if (result?.requeue || result?.requeueAfter) return result;
  await removeFinalizer(client, kind, object, name);
}
