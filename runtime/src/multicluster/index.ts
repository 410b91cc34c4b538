/**
 * Many clusters, one operator: a manager given a cluster provider reconciles its
 * controllers' kinds on every cluster the provider engages.
 *
 * - `createManager({ clusters: provider })` (from `@opgen/runtime`): each engaged cluster
 *   gets its own connection, cache, client, event recorder and, per controller, its own
 *   work queue and backoff. `controller(mgr).for(Widget)` reconciles Widgets of every
 *   engaged cluster; `ctx.cluster.name` names the reconcile's cluster and `ctx.client` is
 *   that cluster's; `.owns()` maps children within their cluster; other clusters are
 *   reached on purpose with `ctx.clusters.get(name)`.
 * - Failure rules: a cluster that cannot be reached delays only its own reconciles (its
 *   informers retry with backoff); a cluster disengaged has its informers stopped, its
 *   queued keys dropped and its in-flight API calls cancelled; neither fails the manager.
 * - Providers: {@link staticClusters} (a list, changed at run time with `add`/`remove`),
 *   {@link namespaceClusters} (one cluster's namespaces as clusters),
 *   {@link kubeconfigSecretClusters} (kubeconfig Secrets, as multicluster-runtime's),
 *   {@link clusterApiClusters} (Cluster API `Cluster`s) and {@link clusterProfileClusters}
 *   (cluster-inventory-api `ClusterProfile`s), both through kubeconfig Secrets.
 *   Implement {@link ClusterProvider} for any other source.
 * - Metrics: `opgen_multicluster_engaged_clusters`, `opgen_multicluster_cluster_synced{cluster}`;
 *   each cluster's work queue as `workqueue_*{name="<controller>/<cluster>"}`.
 *
 * @module
 * @example
 * import { controller, createManager, kinds } from '@opgen/runtime';
 * import { kubeconfigSecretClusters } from '@opgen/runtime/multicluster';
 *
 * const mgr = createManager({ clusters: kubeconfigSecretClusters({ namespace: 'fleet' }) });
 * controller(mgr)
 *   .for(Widget)
 *   .owns(kinds.ConfigMap)
 *   .reconcile(async (widget, ctx) => {
 *     await ctx.apply(kinds.ConfigMap, {
 *       metadata: { name: `${widget.metadata.name}-config` },
 *       data: { cluster: ctx.cluster.name },
 *     });
 *   });
 * await mgr.start();
 */
export type { ClusterProvider, ClusterTarget, FleetAccess } from './provider.js';
export type { ClusterSet, ReconcileCluster } from '../controller/types.js';
export { staticClusters, type StaticClusters } from './static.js';
export { namespaceClusters, type NamespaceClustersOptions } from './namespaces.js';
export { kubeconfigSecretClusters, KUBECONFIG_SECRET_LABEL, type KubeconfigSecretClustersOptions } from './kubeconfig-secrets.js';
export { clusterApiClusters, type ClusterApiClustersOptions } from './cluster-api.js';
export { clusterProfileClusters, type ClusterProfileClustersOptions } from './cluster-profiles.js';
export type { Connect } from './kubeconfig-engager.js';
