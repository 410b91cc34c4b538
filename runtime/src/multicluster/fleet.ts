import type { Cache } from '../cache/index.js';
import type { Client } from '../client/index.js';
import type { ClusterSet, Controller, ControllerFleet, ControllerHost, ControllerRunOptions, ReconcileCluster } from '../controller/types.js';
import type { Cluster } from '../rest/cluster.js';
import { startMember, type Member, type MemberSettings } from './member.js';
import { memberMetrics, registerFleetMetrics } from './metrics.js';
import type { ClusterProvider, ClusterTarget, FleetAccess } from './provider.js';
import { untilStopped } from './until-stopped.js';

/** A manager's fleet: the engaged clusters and the controllers that run on each of them. */
export interface Fleet extends ControllerFleet {
  readonly clusters: ClusterSet;
  /** Runs `provider` until `signal` aborts, then disengages every cluster. */
  run(provider: ClusterProvider, signal: AbortSignal): Promise<void>;
}

/** What the fleet needs of its manager besides {@link MemberSettings}. */
export interface FleetOptions extends MemberSettings {
  local: { cluster: Cluster; client: Client; cache: Cache };
}

/** A controller of the fleet while it runs: its signal and options, and one copy per cluster. */
interface Running {
  build: (host: ControllerHost) => Controller;
  signal: AbortSignal;
  options: ControllerRunOptions;
  copies: Set<Promise<void>>;
}

/** A Kubernetes object's name (a Secret's, a namespace's), or `namespace/name` (a Cluster API Cluster's): cluster names go into logs and metric labels. */
const CLUSTER_NAME = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?\/)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/**
 * The fleet of a manager with a cluster provider (multicluster-runtime's `mcmanager`):
 * each engaged cluster is a {@link Member} of its own, and each controller runs one copy
 * per member, so that a cluster that is slow, down or gone holds up only its own copies.
 */
export function createFleet(options: FleetOptions): Fleet {
  const members = new Map<string, Member>();
  const running = new Set<Running>();
  const log = options.log.child({ logger: 'cluster-provider' });
  registerFleetMetrics(options.metrics.registry, () => [...members.values()]);
  let closed = false;

  const view = (member: Member): ReconcileCluster & { synced(): boolean } => ({ name: member.name, client: member.client, cache: member.cache, synced: member.synced });
  const clusters: ClusterSet = {
    get: (name) => {
      const member = members.get(name);
      return member && view(member);
    },
    names: () => [...members.keys()].sort(),
  };

  /** Runs one copy of `controller` on `member` until either stops; a copy that fails is logged, never the manager's failure. */
  const runCopy = (controller: Running, member: Member): void => {
    const host: ControllerHost = {
      cache: member.cache,
      client: member.client,
      log: member.log,
      metrics: memberMetrics(options.metrics, member.name),
      clock: member.cluster.clock,
      eventRecorder: (component) => member.recorder(component),
      addController: () => {
        throw new Error('a controller of one cluster cannot add controllers: add them to the manager');
      },
      reconcileScope: { cluster: view(member), clusters },
    };
    const stop = AbortSignal.any([controller.signal, member.stopped]);
    // A disengaged cluster's running reconciles have their API calls cancelled: a cluster that
    // is gone would hold them (and the copy's stop) until each call's deadline.
    const cancel = AbortSignal.any([member.stopped, ...(controller.options.cancel ? [controller.options.cancel] : [])]);
    const copy = (async () => controller.build(host).run(stop, { ...controller.options, cancel }))().catch((error: unknown) => {
      member.log.error({ err: error }, 'Controller stopped on this cluster; the other clusters go on');
    });
    controller.copies.add(copy);
    void copy.finally(() => controller.copies.delete(copy));
  };

  /** Disengages `name`; resolves once its events are flushed. */
  const stopMember = async (name: string): Promise<void> => {
    const member = members.get(name);
    if (!member) return;
    members.delete(name);
    log.info({ cluster: name }, 'Cluster disengaged');
    await member.stop();
  };
  const disengage = (name: string): void => void stopMember(name);

  const engage = (name: string, target: ClusterTarget): void => {
    if (!CLUSTER_NAME.test(name) || name.length > 253) throw new Error(`engage: "${name}" is not a valid cluster name (a Kubernetes object name, or "namespace/name")`);
    if (closed) return;
    disengage(name);
    const member = startMember(name, target, options);
    members.set(name, member);
    log.info({ cluster: name, host: member.cluster.host }, 'Cluster engaged');
    for (const controller of running) runCopy(controller, member);
  };

  const access: FleetAccess = { engage, disengage, has: (name) => members.has(name), local: options.local, log };

  return {
    clusters,
    controller(name, build) {
      return {
        name,
        async run(signal, runOptions = {}) {
          const controller: Running = { build, signal, options: runOptions, copies: new Set() };
          running.add(controller);
          for (const member of members.values()) runCopy(controller, member);
          await untilStopped(signal);
          running.delete(controller);
          await Promise.all([...controller.copies]);
        },
      };
    },
    async run(provider, signal) {
      try {
        await provider.run(access, signal);
        await untilStopped(signal);
      } finally {
        closed = true;
        await Promise.all([...members.keys()].map(stopMember));
      }
    },
  };
}
