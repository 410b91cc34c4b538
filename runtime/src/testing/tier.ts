import { existsSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { KubeConfig } from '../rest/kubeconfig.js';
import { createCluster, type Cluster } from '../rest/cluster.js';
import type { Clock } from '../time/clock.js';
import { startControlPlane } from './start-control-plane.js';
import { installCRDs, readCRDDocuments } from './crds.js';
import { createMemoryCluster, type SeedObject } from './memory/cluster.js';
import type { RunUntilIdleOptions } from './memory/idle.js';
import { createObservedClock } from './observed-clock.js';

/** Where a test's API server runs: `memory` (in the test's process) or `controlplane` (real etcd and kube-apiserver). */
export type TestTier = 'memory' | 'controlplane';

/** Options of {@link startTestCluster}. */
export interface TestClusterOptions {
  /**
   * CRD files or directories (e.g. `config/crd/bases`) installed before the test. A project's
   * `config/crd/bases` brings the CRDs `opgen import crd` keeps beside it in
   * `config/crd/external` too, so its controllers that own other projects' kinds find them.
   */
  crds?: string | string[];
  /** Default: the `OPGEN_TEST_TIER` environment variable, else `memory`. */
  tier?: TestTier;
  /**
   * Also run kube-controller-manager on the control plane (garbage collection, built-in
   * workloads); the memory cluster always collects garbage. Default false.
   */
  controllerManager?: boolean;
}

/** A test's API server on either tier, with what a test file needs of it. */
export interface TestCluster {
  readonly tier: TestTier;
  /** For `createManager({ cluster })` and `createClient(cluster)`: carries the transport and the clock. */
  readonly cluster: Cluster;
  /** The control plane's kubeconfig (for kubectl); undefined on the memory tier. */
  readonly kubeConfig: KubeConfig | undefined;
  /** The time the manager runs on: fake on the memory tier, real on the control plane. */
  readonly clock: Clock;
  /**
   * Runs the manager until its queues are empty, no reconcile is in flight and no timer is
   * due within the horizon (default `'1s'`). On the memory tier time is fake: timers within
   * the horizon fire at once, and the call returns in milliseconds. On the control plane
   * time is real: it waits for those timers, and for the manager to stay quiet a moment,
   * since a watch event may still be on the network (follow it with `expect.poll` there).
   */
  runUntilIdle(options?: RunUntilIdleOptions): Promise<void>;
  /** Stops the API server; call it when done, also when the test failed. */
  stop(): Promise<void>;
}

/**
 * Starts a test's API server on the tier `OPGEN_TEST_TIER` names (`memory`, the default, or
 * `controlplane`), so the same test file runs on both.
 *
 * @example
 * const test = await startTestCluster({ crds: 'config/crd/bases' });
 * const mgr = createManager({ cluster: test.cluster, handleSignals: false });
 * setupPodSetController(mgr);
 * const running = mgr.start();
 * await mgr.client.create(PodSet, {
 *   metadata: { name: 'web', namespace: 'default' },
 *   spec: { replicas: 2 },
 * });
 * await test.runUntilIdle();
 * // … assert, then:
 * mgr.stop();
 * await running;
 * await test.stop();
 */
export async function startTestCluster(options: TestClusterOptions = {}): Promise<TestCluster> {
  const tier = options.tier ?? tierFromEnvironment();
  const paths = withImportedCRDs(options.crds === undefined ? [] : [options.crds].flat());
  if (tier === 'memory') {
    const memory = await createMemoryCluster({ crds: paths.length > 0 ? (readCRDDocuments(paths) as SeedObject[]) : [] });
    return {
      tier,
      cluster: memory.cluster,
      kubeConfig: undefined,
      clock: memory.clock,
      runUntilIdle: (idle) => memory.runUntilIdle(idle),
      stop: async () => memory.close(),
    };
  }
  const controlPlane = await startControlPlane({ controllerManager: options.controllerManager ?? false });
  try {
    if (paths.length > 0) await installCRDs(controlPlane.kubeConfig, paths);
  } catch (error) {
    await controlPlane.stop();
    throw error;
  }
  const clock = createObservedClock();
  return {
    tier,
    cluster: createCluster(controlPlane.kubeConfig, { clock }),
    kubeConfig: controlPlane.kubeConfig,
    clock,
    runUntilIdle: (idle) => clock.runUntilIdle(idle),
    stop: () => controlPlane.stop(),
  };
}

/** `paths` and, after a project's `config/crd/bases`, its `config/crd/external` when there is one and it is not given. */
function withImportedCRDs(paths: readonly string[]): string[] {
  const given = new Set(paths.map((p) => resolve(p)));
  return paths.flatMap((path) => {
    const full = resolve(path);
    if (basename(full) !== 'bases' || basename(dirname(full)) !== 'crd') return [path];
    const external = join(dirname(full), 'external');
    return !given.has(external) && existsSync(external) && statSync(external).isDirectory() ? [path, external] : [path];
  });
}

function tierFromEnvironment(): TestTier {
  const value = process.env.OPGEN_TEST_TIER;
  if (value === undefined || value === '' || value === 'memory') return 'memory';
  if (value === 'controlplane') return 'controlplane';
  throw new Error(`OPGEN_TEST_TIER=${value}: expected memory or controlplane`);
}
