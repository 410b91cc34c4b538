// The fleet manager of the "Many clusters" chapter: one Widget controller for every
// cluster a provider engages. Type-checked by test/book/ against the built runtime.
import {
  controller,
  createManager,
  kinds,
  managerOptionsFromArgs,
  type Manager,
} from '@opgen/runtime';
import { loadKubeConfig } from '@opgen/runtime/manager';
import {
  kubeconfigSecretClusters,
  staticClusters,
  type ClusterProvider,
} from '@opgen/runtime/multicluster';
import type { Cluster } from '@opgen/runtime/rest';
import { Widget } from './widget-types.js';

// #region manager
export function fleetManager(argv: readonly string[]): Manager {
  const mgr = createManager({
    ...managerOptionsFromArgs(argv),
    // Every labelled Secret in `fleet` is a cluster: engaged when added, re-engaged when
    // its kubeconfig changes, disengaged when deleted.
    clusters: kubeconfigSecretClusters({ namespace: 'fleet' }),
  });
  controller(mgr)
    .for(Widget)
    .owns(kinds.ConfigMap)
    // #region reconcile
    .reconcile(async (widget, ctx) => {
      // ctx.client reads this cluster's cache and writes to this cluster.
      const cluster = ctx.cluster.name;
      await ctx.apply(kinds.ConfigMap, {
        metadata: { name: `${widget.metadata.name}-config` },
        data: { cluster },
      });
      // Another cluster only on purpose, by name.
      const hub = ctx.clusters!.get('hub');
      if (hub) {
        await hub.client.apply(kinds.ConfigMap, {
          metadata: { name: `${cluster}-${widget.metadata.name}`, namespace: 'inventory' },
          data: { size: String(widget.spec.size) },
        });
      }
    });
  // #endregion reconcile
  return mgr;
}
// #endregion manager

// #region provider
/**
 * A provider of your own: here, clusters listed in a file that is read again on SIGHUP.
 */
export function fileClusters(read: () => Record<string, string>): ClusterProvider {
  return {
    name: 'file',
    async run(fleet, signal) {
      const engaged = new Set<string>();
      const reload = () => {
        const wanted = read(); // cluster name → kubeconfig path
        for (const name of engaged) if (!(name in wanted)) fleet.disengage(name);
        for (const [name, path] of Object.entries(wanted))
          if (!fleet.has(name)) fleet.engage(name, loadKubeConfig(path));
        engaged.clear();
        for (const name of Object.keys(wanted)) engaged.add(name);
      };
      reload();
      process.on('SIGHUP', reload);
      await new Promise((resolve) =>
        signal.addEventListener('abort', resolve, { once: true }),
      );
      process.off('SIGHUP', reload);
    },
  };
}
// #endregion provider

// #region static
/**
 * In a test: two memory clusters (`memory.cluster`) as the fleet; `add`/`remove` change
 * it while the manager runs.
 */
export function testFleet(east: Cluster, west: Cluster) {
  return staticClusters({ east, west });
}
// #endregion static
