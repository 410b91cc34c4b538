import type { KubeConfig, KubernetesObject } from '@kubernetes/client-node';
import { clientNode } from '../rest/client-node.js';
import { FIELD_MANAGER } from './crds.js';

/**
 * Server-side applies `objects` in order (forcing conflicts, field manager `opgen-testing`
 * unless given), as `kubectl apply --server-side --force-conflicts` does; a namespaced object
 * without a namespace goes to the kubeconfig context's namespace. Rejects with the API
 * server's message for the first object it refuses.
 *
 * @example
 * import { applyObjects } from '@opgen/runtime/testing';
 *
 * await applyObjects(cp.kubeConfig, [
 *   { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' }, data: { a: '1' } },
 * ]);
 */
export async function applyObjects(kubeConfig: KubeConfig, objects: readonly object[], fieldManager = FIELD_MANAGER): Promise<void> {
  const { KubernetesObjectApi, PatchStrategy } = clientNode();
  const api = KubernetesObjectApi.makeApiClient(kubeConfig);
  for (const object of objects) await api.patch(object as KubernetesObject, undefined, undefined, fieldManager, true, PatchStrategy.ServerSideApply);
}
