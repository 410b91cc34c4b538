import { runLeaderElection, type Takeover } from '../leaderelection/index.js';
import type { Cluster } from '../rest/cluster.js';
import type { Logger } from '../log/index.js';
import type { Metrics } from '../metrics/index.js';
import type { ManagerOptions } from './options.js';

/** What {@link campaign} needs: the lease settings and what to do when leading starts or is lost. */
export interface Campaign {
  /** The manager's one cluster: the lease's requests take its tokens and show in its metrics. */
  cluster: Cluster;
  options: ManagerOptions;
  leaseName: string;
  log: Logger;
  metrics: Metrics;
  /** Ends the campaign; abort it only after the work started by `onLeading` has stopped. */
  signal: AbortSignal;
  /** Stops renewing without releasing the lease (shutdown timed out with work running). */
  abandon: AbortSignal;
  /** This process leads; `leaseSignal` aborts when it stops leading; `stillLeading` is the synchronous fence. */
  onLeading(leaseSignal: AbortSignal, stillLeading: () => boolean, takeover: Takeover): void;
  /** The lease could not be renewed in time: another replica may be leading already. */
  onLost(): void;
}

/**
 * Runs the manager's leader election, keeping `leader_election_master_status` current.
 * Resolves when the campaign ends (signal aborted or lease lost).
 */
export function campaign(c: Campaign): Promise<void> {
  const { options, leaseName, metrics } = c;
  metrics.leaderStatus(leaseName, false);
  return runLeaderElection(
    c.cluster,
    {
      id: leaseName,
      namespace: options.leaderElectionNamespace,
      leaseDurationMs: options.leaseDurationMs,
      renewDeadlineMs: options.renewDeadlineMs,
      retryPeriodMs: options.retryPeriodMs,
      releaseOnCancel: options.leaderElectionReleaseOnCancel,
      signal: c.signal,
      abandon: c.abandon,
      logger: c.log,
    },
    {
      onStartedLeading(leaseSignal, stillLeading, takeover) {
        metrics.leaderStatus(leaseName, true);
        c.onLeading(leaseSignal, stillLeading, takeover);
      },
      onStoppedLeading({ lost }) {
        metrics.leaderStatus(leaseName, false);
        if (lost) c.onLost();
      },
    },
  );
}
