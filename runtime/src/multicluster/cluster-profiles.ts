import { defineKind } from '../api/kind.js';
import type { Condition, ObjectMeta } from '../api/index.js';
import type { Connect } from './kubeconfig-engager.js';
import { keyedKubeconfigClusters } from './keyed-kubeconfig.js';
import type { ClusterProvider } from './provider.js';

/** What the provider reads of a cluster-inventory-api `ClusterProfile`. */
interface ClusterProfile {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  status?: { conditions?: Condition[] };
}

const CONSUMER_LABEL = 'x-k8s.io/cluster-inventory-consumer';
const PROFILE_LABEL = 'x-k8s.io/cluster-profile';

/** Options of {@link clusterProfileClusters}. */
export interface ClusterProfileClustersOptions {
  /** This operator's name as a consumer of the inventory: the Secrets it reads carry it in `x-k8s.io/cluster-inventory-consumer`. */
  consumerName: string;
  /** Only ClusterProfiles of this namespace; default every namespace. */
  namespace?: string;
  /** Turns a profile's kubeconfig into its connection; see `KubeconfigSecretClustersOptions.connect`. */
  connect?: Connect;
}

/**
 * Clusters of the cluster inventory (sigs.k8s.io/cluster-inventory-api), multicluster-runtime's
 * `cluster-inventory-api` provider with its Secret strategy: each `ClusterProfile`
 * (`multicluster.x-k8s.io/v1alpha1`) is engaged as `<namespace>/<name>` once its
 * `ControlPlaneHealthy` condition is True, through the one Secret of its namespace labelled
 * `x-k8s.io/cluster-inventory-consumer=<consumerName>` and `x-k8s.io/cluster-profile=<name>`
 * (data key `Config`). The access-provider strategy (exec credential plugins) is not here.
 *
 * @example
 * import { clusterProfileClusters } from '@opgen/runtime/multicluster';
 *
 * const mgr = createManager({
 *   clusters: clusterProfileClusters({
 *     consumerName: 'widget-operator',
 *     namespace: 'fleet-system',
 *   }),
 * });
 */
export function clusterProfileClusters(options: ClusterProfileClustersOptions): ClusterProvider {
  return keyedKubeconfigClusters<ClusterProfile>({
    name: 'cluster-profiles',
    kind: defineKind<ClusterProfile, true>({ group: 'multicluster.x-k8s.io', version: 'v1alpha1', kind: 'ClusterProfile', plural: 'clusterprofiles', namespaced: true }),
    ...(options.namespace ? { namespace: options.namespace } : {}),
    secrets: { labelSelector: `${CONSUMER_LABEL}=${options.consumerName},${PROFILE_LABEL}` },
    isReady: (profile) => profile.status?.conditions?.some((c) => c.type === 'ControlPlaneHealthy' && c.status === 'True') === true,
    ownerOf: (secret) => secret.metadata.labels?.[PROFILE_LABEL],
    kubeconfigOf(profile, secrets) {
      const { name, namespace } = profile.metadata;
      const found = secrets.list({ namespace, labels: { [PROFILE_LABEL]: name } });
      if (found.length === 0) return undefined;
      const source = `Secret of ClusterProfile ${namespace}/${name} (data key "Config")`;
      // Two Secrets for one profile: which is meant cannot be told, so neither is used.
      return { encoded: found.length === 1 ? found[0]!.data?.Config : undefined, source: found.length === 1 ? source : `${found.length} Secrets of ClusterProfile ${namespace}/${name}` };
    },
    ...(options.connect ? { connect: options.connect } : {}),
  });
}
