import { createCache } from '../cache/index.js';
import { kinds } from '../client/index.js';
import type { Cached } from '../cache/index.js';
import type { ClusterProvider } from './provider.js';
import { untilStopped } from './until-stopped.js';

/** Options of {@link namespaceClusters}. */
export interface NamespaceClustersOptions {
  /** Only namespaces with these labels (API syntax, e.g. `tenant=true`); default every namespace. */
  labelSelector?: string;
}

/**
 * Namespaces as clusters, multicluster-runtime's `namespace` provider: each namespace of
 * the manager's own cluster is a cluster of its own, named as the namespace, with its own
 * cache of that namespace only. Engaged when the namespace appears, disengaged when it is
 * deleted or starts terminating. For tests of fleet controllers on one cluster and for
 * tenants kept in namespaces; it isolates caches and queues, not permissions.
 *
 * @example
 * import { namespaceClusters } from '@opgen/runtime/multicluster';
 *
 * const mgr = createManager({
 *   clusters: namespaceClusters({ labelSelector: 'example.com/tenant=true' }),
 * });
 * controller(mgr)
 *   .for(Widget)
 *   .reconcile(async (widget, ctx) => {
 *     ctx.log.info({ tenant: ctx.cluster.name }, 'reconciling');
 *   });
 */
export function namespaceClusters(options: NamespaceClustersOptions = {}): ClusterProvider {
  return {
    name: 'namespaces',
    async run(fleet, signal) {
      const cache = createCache(fleet.local.cluster, { logger: fleet.log, byKind: [{ kind: kinds.Namespace, ...(options.labelSelector ? { labelSelector: options.labelSelector } : {}) }] });
      const seen = (namespace: Cached<kinds.Namespace>): void => {
        const name = namespace.metadata.name;
        const active = !namespace.metadata.deletionTimestamp && namespace.status?.phase !== 'Terminating';
        if (!active) fleet.disengage(name);
        else if (!fleet.has(name)) fleet.engage(name, { cluster: fleet.local.cluster, namespace: name });
      };
      cache.informerFor(kinds.Namespace).addHandler({
        add: seen,
        update: (_old, namespace) => seen(namespace),
        delete: (namespace) => fleet.disengage(namespace.metadata.name),
      });
      cache.start(signal);
      await untilStopped(signal);
    },
  };
}
