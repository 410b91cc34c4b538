import { createCache, type Cached } from '../cache/index.js';
import { kinds } from '../client/index.js';
import { kubeconfigEngager, type Connect } from './kubeconfig-engager.js';
import type { ClusterProvider } from './provider.js';
import { untilStopped } from './until-stopped.js';

/** Options of {@link kubeconfigSecretClusters}. */
export interface KubeconfigSecretClustersOptions {
  /** The namespace of the manager's own cluster holding the Secrets. */
  namespace: string;
  /** Which Secrets name clusters; default `sigs.k8s.io/multicluster-runtime-kubeconfig=true`, multicluster-runtime's label. */
  labelSelector?: string;
  /** The data key holding the kubeconfig; default `kubeconfig`. */
  key?: string;
  /**
   * Turns a Secret's kubeconfig into the connection of its cluster; default the kubeconfig
   * itself (a connection with no client-side rate limit). Return a `Cluster` to set one,
   * e.g. `(kubeConfig) => createCluster(kubeConfig, { qps: 20 })`.
   */
  connect?: Connect;
}

/** multicluster-runtime's label of kubeconfig Secrets. */
export const KUBECONFIG_SECRET_LABEL = 'sigs.k8s.io/multicluster-runtime-kubeconfig';

/**
 * Clusters from kubeconfig Secrets, multicluster-runtime's `kubeconfig` provider: each
 * Secret in `namespace` matching the label selector is a cluster named as the Secret,
 * reached through the kubeconfig under `key`. A Secret added engages its cluster; a changed
 * kubeconfig re-engages it (a new connection and cache); a Secret deleted, or being deleted,
 * disengages it. A Secret without a usable kubeconfig is logged and its cluster disengaged.
 *
 * @example
 * // kubectl -n fleet create secret generic east --from-file=kubeconfig=east.yaml
 * // kubectl -n fleet label secret east sigs.k8s.io/multicluster-runtime-kubeconfig=true
 * import { kubeconfigSecretClusters } from '@opgen/runtime/multicluster';
 *
 * const mgr = createManager({ clusters: kubeconfigSecretClusters({ namespace: 'fleet' }) });
 */
export function kubeconfigSecretClusters(options: KubeconfigSecretClustersOptions): ClusterProvider {
  const labelSelector = options.labelSelector ?? `${KUBECONFIG_SECRET_LABEL}=true`;
  const key = options.key ?? 'kubeconfig';
  return {
    name: 'kubeconfig-secrets',
    async run(fleet, signal) {
      const cache = createCache(fleet.local.cluster, { namespace: options.namespace, logger: fleet.log, byKind: [{ kind: kinds.Secret, labelSelector }] });
      const clusters = kubeconfigEngager(fleet, options.connect);
      const seen = (secret: Cached<kinds.Secret>): void => {
        const name = secret.metadata.name;
        if (secret.metadata.deletionTimestamp) clusters.disengage(name);
        else clusters.engage(name, secret.data?.[key], `Secret ${options.namespace}/${name} (data key "${key}")`);
      };
      cache.informerFor(kinds.Secret).addHandler({
        add: seen,
        update: (_old, secret) => seen(secret),
        delete: (secret) => clusters.disengage(secret.metadata.name),
      });
      cache.start(signal);
      await untilStopped(signal);
    },
  };
}
