import type { KubeConfig } from '@kubernetes/client-node';
import { defineKind, type Kind } from '../api/kind.js';
import type { TokenBucket } from '../rest/token-bucket.js';
import { createTransport, type Transport } from '../rest/transport.js';
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
 * Each request takes a token from `rateLimiter` when one is given (the manager's).
 */
export function kindResolver(kubeConfig: KubeConfig, rateLimiter?: TokenBucket): KindResolver {
  const transport: Transport = createTransport(kubeConfig, { rateLimiter });
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
