import type { ClusterProvider, ClusterTarget, FleetAccess } from './provider.js';
import { untilStopped } from './until-stopped.js';

/** A {@link ClusterProvider} of a list of clusters that changes only when told to. */
export interface StaticClusters extends ClusterProvider {
  /** Engages (or replaces) the cluster `name`, now if the manager runs, else at its start. */
  add(name: string, target: ClusterTarget): void;
  /** Disengages the cluster `name`; false when it was not in the list. */
  remove(name: string): boolean;
}

/**
 * A static list of clusters by name, multicluster-runtime's `file` and `single` providers
 * in one: kubeconfigs, `Cluster`s (memory clusters in tests) or either narrowed to a
 * namespace. `add` and `remove` change the fleet while the manager runs.
 *
 * @example
 * import { loadKubeConfig } from '@opgen/runtime/manager';
 * import { staticClusters } from '@opgen/runtime/multicluster';
 *
 * const clusters = staticClusters({
 *   east: loadKubeConfig('/etc/fleet/east'),
 *   west: loadKubeConfig('/etc/fleet/west'),
 * });
 * const mgr = createManager({ clusters });
 * // later, e.g. from an admin endpoint:
 * clusters.remove('east');
 */
export function staticClusters(initial: Record<string, ClusterTarget> = {}): StaticClusters {
  const list = new Map(Object.entries(initial));
  let fleet: FleetAccess | undefined;
  return {
    name: 'static',
    async run(access, signal) {
      fleet = access;
      for (const [name, target] of list) access.engage(name, target);
      await untilStopped(signal);
      fleet = undefined;
    },
    add(name, target) {
      list.set(name, target);
      fleet?.engage(name, target);
    },
    remove(name) {
      fleet?.disengage(name);
      return list.delete(name);
    },
  };
}
