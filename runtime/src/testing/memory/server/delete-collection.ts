/**
 * DELETE of a collection (`deletecollection`): every object the selectors match is
 * deleted as one DELETE of it would be; the answer lists the objects as deleted.
 */
import { removeOrMark, type DeleteOptions } from './deletion.js';
import { storageKey } from './registry.js';
import { listObjects } from './reads.js';
import { apiVersionOf } from './resources.js';
import type { Reply, ServerState, Target } from './state.js';
import type { Obj } from './storage.js';

export function deleteCollection(state: ServerState, target: Target, query: Record<string, string>, options: DeleteOptions): Reply {
  const { info } = target;
  const listed = listObjects(state, target, { labelSelector: query.labelSelector ?? '', fieldSelector: query.fieldSelector ?? '' }, 'object').body as { items: Obj[] };
  const store = state.storage.store(storageKey(info));
  const deleted: Obj[] = [];
  for (const item of listed.items) {
    const key = `${info.namespaced ? item.metadata.namespace : ''}/${item.metadata.name}`;
    const live = store.objects.get(key);
    if (!live) continue;
    const answer = removeOrMark(state, info, live, options);
    const body = answer.body as Obj;
    deleted.push(body.kind === 'Status' ? { ...structuredClone(live), apiVersion: apiVersionOf(info) } : body);
  }
  return { code: 200, body: { kind: info.listKind, apiVersion: apiVersionOf(info), metadata: { resourceVersion: String(state.storage.revision()) }, items: deleted } };
}
