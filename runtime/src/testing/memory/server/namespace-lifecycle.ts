/**
 * The NamespaceLifecycle admission plugin: no new object in a namespace that does not
 * exist or is being deleted, and the system namespaces cannot be deleted.
 */
import { forbidden, notFound } from './errors.js';
import type { ResourceInfo } from './resources.js';
import { liveObject, type ServerState } from './state.js';

const NAMESPACES = { group: '', resource: 'namespaces' };
/** Namespaces the API server itself keeps: deleting them is refused. */
export const IMMORTAL_NAMESPACES = ['default', 'kube-system', 'kube-public'];

export function admitCreate(state: ServerState, info: ResourceInfo, namespace: string | undefined, name: string): void {
  if (!info.namespaced || !namespace) return;
  const ns = state.registry.byPath('', 'v1', 'namespaces')!;
  const live = liveObject(state, ns, undefined, namespace);
  if (!live) throw notFound(NAMESPACES, namespace);
  if (live.metadata.deletionTimestamp || live.status?.phase === 'Terminating') {
    throw forbidden({ group: info.group, resource: info.plural }, name, `unable to create new content in namespace ${namespace} because it is being terminated`, [
      { reason: 'NamespaceTerminating', message: `namespace ${namespace} is being terminated`, field: 'metadata.namespace' },
    ]);
  }
}

export function admitDelete(info: ResourceInfo, name: string): void {
  if (info.group === '' && info.plural === 'namespaces' && IMMORTAL_NAMESPACES.includes(name)) {
    throw forbidden(NAMESPACES, name, 'this namespace may not be deleted');
  }
}
