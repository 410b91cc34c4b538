/**
 * The manager: one process's client, cache, metrics, probes, leader election, servers and
 * controllers, started and stopped together (SIGTERM: in-flight reconciles finish first).
 *
 * Public surface:
 * - `createManager(options?)` → {@link Manager}; `managerOptionsFromArgs(argv?)` reads
 *   kubebuilder's flags (`--leader-elect`, `--metrics-bind-address`, `--kube-api-qps`, …).
 * - `mgr.addRunnable(run, { needLeaderElection? })`, `mgr.addHealthzCheck` /
 *   `addReadyzCheck`: work and checks of your own.
 * - `loadKubeConfig(path?, { context? })`: the kubeconfig as the manager finds it (flag,
 *   `KUBECONFIG`, in-cluster, `~/.kube/config`), opgen's own {@link KubeConfig}.
 *
 * Imported as `@opgen/runtime/manager`; `createManager`, `managerOptionsFromArgs`,
 * `Manager` and `ManagerOptions` are also in the root export.
 *
 * @example
 * import { createManager, managerOptionsFromArgs, type Runnable } from '@opgen/runtime/manager';
 *
 * const mgr = createManager({ ...managerOptionsFromArgs(), leaderElectionId: 'abc123.example.com' });
 * const sweep: Runnable = async (signal) => { while (!signal.aborted) await sweepOnce(signal); };
 * mgr.addRunnable(sweep);
 * await mgr.start();
 *
 * @module
 */
export { createManager } from './manager.js';
export type { Manager, Runnable, RunnableOptions } from './types.js';
export { managerOptionsFromArgs } from './args.js';
export { loadKubeConfig, type LoadKubeConfigOptions } from '../rest/load-kubeconfig.js';
export type { KubeConfig } from '../rest/kubeconfig.js';
export type { ManagerOptions } from './options.js';
export type { Check } from './probes.js';
