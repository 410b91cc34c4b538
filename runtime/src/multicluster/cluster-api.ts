import { defineKind } from '../api/kind.js';
import type { ObjectMeta } from '../api/index.js';
import { createCache, type Cached } from '../cache/index.js';
import { kinds } from '../client/index.js';
import { kubeconfigEngager, type Connect } from './kubeconfig-engager.js';
import type { ClusterProvider } from './provider.js';
import { untilStopped } from './until-stopped.js';

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
  const Cluster = defineKind<CapiCluster, true>({ group: 'cluster.x-k8s.io', version: options.version ?? 'v1beta2', kind: 'Cluster', plural: 'clusters', namespaced: true });
  const isReady = options.isReady ?? ((cluster) => cluster.status?.phase === 'Provisioned');
  return {
    name: 'cluster-api',
    async run(fleet, signal) {
      const cache = createCache(fleet.local.cluster, {
        namespace: options.namespace,
        logger: fleet.log,
        byKind: [{ kind: kinds.Secret, fieldSelector: 'type=cluster.x-k8s.io/secret' }],
      });
      const clusters = cache.informerFor(Cluster);
      const secrets = cache.informerFor(kinds.Secret);
      const engager = kubeconfigEngager(fleet, options.connect);
      /** Brings the fleet in line with the Cluster `namespace/name` and its kubeconfig Secret. */
      const sync = (namespace: string, name: string): void => {
        const key = `${namespace}/${name}`;
        const cluster = clusters.get(name, namespace);
        if (!cluster || cluster.metadata.deletionTimestamp) return engager.disengage(key);
        // Not provisioned (yet, or any more): an engaged cluster stays, as in multicluster-runtime.
        if (!isReady(cluster)) return;
        const secret = secrets.get(`${name}-kubeconfig`, namespace);
        // The Secret may come after the Cluster turns ready: its own event engages then.
        if (!secret) return;
        engager.engage(key, secret.data?.value, `Secret ${namespace}/${name}-kubeconfig (data key "value")`);
      };
      const onCluster = (cluster: Cached<CapiCluster>): void => sync(cluster.metadata.namespace!, cluster.metadata.name);
      clusters.addHandler({ add: onCluster, update: (_old, cluster) => onCluster(cluster), delete: onCluster });
      const onSecret = (secret: Cached<kinds.Secret>): void => {
        const owner = /^(.+)-kubeconfig$/.exec(secret.metadata.name)?.[1];
        if (owner) sync(secret.metadata.namespace!, owner);
      };
      secrets.addHandler({ add: onSecret, update: (_old, secret) => onSecret(secret), delete: onSecret });
      cache.start(signal);
      await untilStopped(signal);
    },
  };
}
