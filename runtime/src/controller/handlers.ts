import { apiVersionOf, type Kind } from '../api/kind.js';
import { groupOf } from '../api/group.js';
import type { DeepReadonly, KubeObject } from '../object.js';
import type { WatchEvent } from './predicates.js';
import type { Request } from './request.js';

/** Turns an event into the requests it should enqueue. */
export type EventMapper<T extends KubeObject = KubeObject> = (event: WatchEvent<T>) => Request[];

function requestOf(object: DeepReadonly<KubeObject>): Request[] {
  const name = object.metadata?.name;
  if (!name) return [];
  const namespace = object.metadata?.namespace;
  return [namespace ? { namespace, name } : { name }];
}

/** `For`: the object's own namespace/name. */
export function enqueueObject(): EventMapper {
  return (event) => requestOf(event.object);
}


/**
 * `Owns`: the controller owner of kind `owner` (the owner reference with `controller: true`
 * whose group and kind match; the version may differ, as a stored object may have been
 * written under another version). For updates, both the old and new owner, so a change of
 * owner reconciles both.
 */
export function enqueueControllerOwner(owner: Kind): EventMapper {
  const group = groupOf(apiVersionOf(owner));
  const fromObject = (object: DeepReadonly<KubeObject> | undefined): Request[] => {
    const ref = object?.metadata?.ownerReferences?.find((r) => r.controller === true);
    if (!ref || ref.kind !== owner.kind || groupOf(ref.apiVersion) !== group) return [];
    const namespace = owner.namespaced ? object?.metadata?.namespace : undefined;
    return [namespace ? { namespace, name: ref.name } : { name: ref.name }];
  };
  return (event) => [...fromObject(event.object), ...fromObject(event.oldObject)];
}

/**
 * `Watches` with a map function: whatever `map` returns for the object; for updates, for
 * both the old and the new object.
 */
export function enqueueMapped<T extends KubeObject>(map: (object: DeepReadonly<T>) => Request[]): EventMapper<T> {
  return (event) => [...map(event.object), ...(event.oldObject ? map(event.oldObject) : [])];
}
