import { defineKind } from '../api/kind.js';
import type { ObjectMeta } from '../api/index.js';
import type { Cached } from '../cache/index.js';
import type { Connect } from './kubeconfig-engager.js';
import { keyedKubeconfigClusters } from './keyed-kubeconfig.js';
import type { ClusterProvider } from './provider.js';

/** What the provider reads of a Cluster API `Cluster`. */
interface CapiCluster {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  status?: { phase?: string };
}

/** Options of {@link clusterApiClusters}. */
export interface ClusterApiClustersOptions {
  /** Only Clusters of this namespace of the manager's cluster; default every namespace. */
  namespace?: string;
  /** The version of `cluster.x-k8s.io` to watch; default `v1beta2` (Cluster API 1.11 and later), `v1beta1` for older ones. */
  version?: 'v1beta1' | 'v1beta2';
  /** Whether a Cluster is ready to be engaged; default its `status.phase` is `Provisioned`, as multicluster-runtime's provider decides. */
  isReady?: (cluster: Cached<CapiCluster>) => boolean;
  /** Turns the Cluster's kubeconfig into its connection; see `KubeconfigSecretClustersOptions.connect`. */
  connect?: Connect;
}

/**
 * Clusters of Cluster API, multicluster-runtime's `cluster-api` provider: each `Cluster`
 * of the manager's cluster is engaged as `<namespace>/<name>` once it is provisioned,
 * through the kubeconfig Cluster API keeps in its Secret `<name>-kubeconfig` (data key
 * `value`). A rotated kubeconfig re-engages it; a Cluster deleted or being deleted
 * disengages it.
 *
 * @example
 * import { clusterApiClusters } from '@opgen/runtime/multicluster';
 *
 * const mgr = createManager({ clusters: clusterApiClusters({ namespace: 'workloads' }) });
 */
export function clusterApiClusters(options: ClusterApiClustersOptions = {}): ClusterProvider {
  return keyedKubeconfigClusters<CapiCluster>({
    name: 'cluster-api',
    kind: defineKind<CapiCluster, true>({ group: 'cluster.x-k8s.io', version: options.version ?? 'v1beta2', kind: 'Cluster', plural: 'clusters', namespaced: true }),
    ...(options.namespace ? { namespace: options.namespace } : {}),
    secrets: { fieldSelector: 'type=cluster.x-k8s.io/secret' },
    isReady: options.isReady ?? ((cluster) => cluster.status?.phase === 'Provisioned'),
    ownerOf: (secret) => /^(.+)-kubeconfig$/.exec(secret.metadata.name)?.[1],
    kubeconfigOf(cluster, secrets) {
      const { name, namespace } = cluster.metadata;
      const secret = secrets.get(`${name}-kubeconfig`, namespace);
      return secret && { encoded: secret.data?.value, source: `Secret ${namespace}/${name}-kubeconfig (data key "value")` };
    },
    ...(options.connect ? { connect: options.connect } : {}),
  });
}
