import { defineKind, type Kind } from '../api/kind.js';
import type { Cluster } from '../rest/cluster.js';
import type { KubeObject } from '../object.js';

interface ResourceList {
  resources: { name: string; kind: string; namespaced: boolean }[];
}

/** Finds the run-time {@link Kind} of an `apiVersion` and `kind`, as the API server serves it. */
export type KindResolver = (apiVersion: string, kind: string, signal?: AbortSignal) => Promise<Kind<KubeObject>>;

/**
 * A chart may render any kind, so its objects' resource names and scopes come from the API
 * server's discovery documents, one request per group version, remembered for the process
 * (a kind that is not served yet is asked again next time: its CRD may arrive later).
 * The requests go through `cluster` (the manager's): its tokens, its request metrics.
 */
export function kindResolver(cluster: Cluster): KindResolver {
  const { transport } = cluster;
  const groups = new Map<string, ResourceList>();
  return async (apiVersion, kind, signal) => {
    let list = groups.get(apiVersion);
    const found = () => list?.resources.find((r) => r.kind === kind && !r.name.includes('/'));
    if (!found()) {
      const path = apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
      try {
        list = await transport.request<ResourceList>({ method: 'GET', path, signal });
      } catch (error) {
        throw new Error(`${kind} ${apiVersion} is not served by the API server: ${(error as Error).message}`);
      }
      groups.set(apiVersion, list);
    }
    const resource = found();
    if (!resource) throw new Error(`${kind} ${apiVersion} is not served by the API server`);
    const slash = apiVersion.indexOf('/');
    return defineKind<KubeObject>({
      group: slash < 0 ? '' : apiVersion.slice(0, slash),
      version: slash < 0 ? apiVersion : apiVersion.slice(slash + 1),
      kind,
      plural: resource.name,
      namespaced: resource.namespaced,
    });
  };
}
