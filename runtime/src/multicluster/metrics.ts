import { Gauge, type Registry } from 'prom-client';
import type { Metrics } from '../metrics/index.js';

/**
 * `opgen_multicluster_engaged_clusters` and `opgen_multicluster_cluster_synced{cluster}`
 * (1 once every informer of the cluster has listed), read from `members` at scrape time,
 * so a disengaged cluster's series disappears with it.
 */
export function registerFleetMetrics(registry: Registry, members: () => Array<{ name: string; synced(): boolean }>): void {
  new Gauge({
    name: 'opgen_multicluster_engaged_clusters',
    help: 'Clusters the cluster provider has engaged',
    registers: [registry],
    collect() {
      this.set(members().length);
    },
  });
  new Gauge({
    name: 'opgen_multicluster_cluster_synced',
    help: 'Whether every informer of an engaged cluster has listed (1) or not (0)',
    labelNames: ['cluster'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const member of members()) this.set({ cluster: member.name }, member.synced() ? 1 : 0);
    },
  });
}

/**
 * The manager's metrics as one cluster's copy of a controller reports them: the
 * controller-runtime families count the whole fleet under the controller's name, and each
 * copy's work queue is its own, named `<controller>/<cluster>` in the `workqueue_*` families.
 */
export function memberMetrics(metrics: Metrics, cluster: string): Metrics {
  return { ...metrics, workQueues: { forQueue: (name, inFlight) => metrics.workQueues.forQueue(`${name}/${cluster}`, inFlight) } };
}
