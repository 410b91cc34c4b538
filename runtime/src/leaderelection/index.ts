/**
 * Leader election on a `coordination.k8s.io/v1` Lease, so that of several replicas only
 * one reconciles.
 *
 * Public surface:
 * - `runLeaderElection(clusterOrKubeConfig, { id, namespace?, identity?, leaseDurationMs?,
 *   renewDeadlineMs?, retryPeriodMs?, releaseOnCancel?, signal, abandon?, logger?, clock? },
 *   { onStartedLeading(signal, stillLeading),
 *   onStoppedLeading({ lost }), onNewLeader?(identity) })`: resolves when leadership is
 *   lost (`lost: true`: the process should exit non-zero) or `signal` aborts (lease released).
 *
 *
 * Imported as `@opgen/runtime/leaderelection`; a manager created with `leaderElection: true`
 * runs it for you, so use this only for a process without a manager.
 *
 * @example
 * import { runLeaderElection } from '@opgen/runtime/leaderelection';
 *
 * await runLeaderElection(kubeConfig, { id: 'my-job.example.com', signal }, {
 *   onStartedLeading: (leading) => void work(leading),
 *   onStoppedLeading: ({ lost }) => { if (lost) process.exit(1); },
 * });
 *
 * @module
 */
export { runLeaderElection, type ElectionClock, type LeaderCallbacks, type LeaderElectionRun, type Takeover } from './elector.js';
export type { LeaderElectionOptions } from './types.js';
