import type { Kind } from '../api/kind.js';
import type { Client } from '../client/index.js';
import { ensureFinalizer, hasFinalizer, removeFinalizer } from '../helpers/finalizers.js';
import { applyChecked, deleteChecked } from '../helpers/guarded-writes.js';
import { checkControl, setControllerReference } from '../helpers/owner.js';
import type { DeepReadonly, KubeObject, Stored } from '../object.js';
import { cleanedUp, markCleanedUp } from './cleaned-up.js';
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
  /** A copy of `child` in the object's namespace (if it names none). */
  const placed = <C extends KubeObject>(childKind: Kind<C>, child: DeepReadonly<KubeObject>): C => {
    const copy = structuredClone(child) as C;
    const metadata = (copy.metadata ??= {});
    if (childKind.namespaced && !metadata.namespace && object.metadata.namespace) metadata.namespace = object.metadata.namespace;
    return copy;
  };
  /** A copy of `child` in the object's namespace (if it names none) and controlled by the object. */
  const owned = <C extends KubeObject>(childKind: Kind<C>, child: DeepReadonly<KubeObject>): C => setControllerReference(object, kind, placed(childKind, child));

  return {
    ...base,
    create: (childKind, child) => client.create(childKind, owned(childKind, child)) as never,
    apply: (childKind, child, options = {}) => {
      const { adopt, ...applyOptions } = options;
      return applyChecked(client, childKind, owned(childKind, child as DeepReadonly<KubeObject>) as never, (live) => checkControl(object, kind, live, { adopt }), applyOptions) as never;
    },
    delete: (childKind, child, options) => deleteChecked(client, childKind as Kind<KubeObject>, placed(childKind, child), (live) => checkControl(object, kind, live), options),
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
  const uid = object.metadata.uid;
  if (!cleanedUp(uid, name)) {
    const result = await handlers.cleanup();
    if (result?.requeue || result?.requeueAfter) return result;
    markCleanedUp(uid, name, true);
  }
  await removeFinalizer(client, kind, object, name);
  markCleanedUp(uid, name, false);
}
