import type { KubeConfig } from '../rest/kubeconfig.js';
import type { Cache } from '../cache/index.js';
import type { Client } from '../client/index.js';
import type { Logger } from '../log/index.js';
import type { Cluster } from '../rest/cluster.js';

/**
 * How to reach one cluster: a kubeconfig, a {@link Cluster} (e.g. a memory cluster's
 * `memory.cluster`), or either of them narrowed to one namespace (namespaces as clusters).
 *
 * @example
 * const target: ClusterTarget = { cluster: hostCluster, namespace: 'tenant-a' };
 */
export type ClusterTarget = KubeConfig | Cluster | { cluster: KubeConfig | Cluster; namespace?: string };

/**
 * What a {@link ClusterProvider} is handed: the manager's own cluster (where kubeconfig
 * Secrets or namespaces live) and the two calls that change the fleet.
 *
 * @example
 * const provider: ClusterProvider = {
 *   name: 'two-clusters',
 *   run(fleet, signal) {
 *     fleet.engage('east', loadKubeConfig('/etc/fleet/east'));
 *     fleet.engage('west', loadKubeConfig('/etc/fleet/west'));
 *     return new Promise((resolve) =>
 *       signal.addEventListener('abort', () => resolve(), { once: true }),
 *     );
 *   },
 * };
 */
export interface FleetAccess {
  /**
   * Engages the cluster `name` (a Kubernetes object name, or `namespace/name`): it gets its own connection, cache
   * and, per controller, its own queue, and every controller starts reconciling it. Returns
   * at once: the cluster's caches sync in the background, and a cluster that cannot be
   * reached delays nobody. Engaging a name that is engaged replaces that cluster (a
   * changed kubeconfig), as a disengage and an engage.
   */
  engage(name: string, target: ClusterTarget): void;
  /**
   * Disengages the cluster `name` (nothing when it is not engaged): its informers stop,
   * its queued keys are dropped, its in-flight reconciles have their API calls cancelled.
   */
  disengage(name: string): void;
  /** Whether `name` is engaged now. */
  has(name: string): boolean;
  /** The manager's own cluster, where a provider finds what names the fleet's clusters. */
  readonly local: { readonly cluster: Cluster; readonly client: Client; readonly cache: Cache };
  /** The manager's logger with `logger: 'cluster-provider'`. */
  readonly log: Logger;
}

/**
 * A source of clusters, multicluster-runtime's `Provider`: it engages and disengages
 * clusters while it runs. Implement it to take clusters from anywhere (a CRD, a file, a
 * cloud API); `@opgen/runtime/multicluster` has a static list, namespaces as clusters and
 * kubeconfig Secrets.
 *
 * @example
 * const mgr = createManager({ clusters: kubeconfigSecretClusters({ namespace: 'fleet' }) });
 * controller(mgr).for(Widget).reconcile(async (widget, ctx) => {
 *   ctx.log.info({ cluster: ctx.cluster.name }, 'reconciling');
 * });
 */
export interface ClusterProvider {
  /** Names the provider in logs. */
  readonly name: string;
  /**
   * Runs from the manager's start (on every replica) until `signal` aborts, engaging and
   * disengaging clusters through `fleet`. Throwing stops the manager; a provider that
   * cannot read its source for a while should log and retry instead.
   */
  run(fleet: FleetAccess, signal: AbortSignal): void | Promise<void>;
}
