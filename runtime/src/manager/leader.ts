import type { KubeConfig } from '@kubernetes/client-node';
import { runLeaderElection } from '../leaderelection/index.js';
import type { TransportOptions } from '../rest/transport.js';
import type { Logger } from '../log/index.js';
import type { Metrics } from '../metrics/index.js';
import type { ManagerOptions } from './options.js';
import type { Clock } from '../time/clock.js';

/** What {@link campaign} needs: the lease settings and what to do when leading starts or is lost. */
export interface Campaign {
  kubeConfig: KubeConfig;
  options: ManagerOptions;
  leaseName: string;
  log: Logger;
  metrics: Metrics;
  /** How the lease's requests reach the API server: the manager's one rate limiter and its `rest_client_*` observer. */
  transport: Pick<TransportOptions, 'rateLimiter' | 'observer'>;
  /** The lease's time: the manager's clock. */
  clock: Clock;
  /** Ends the campaign; abort it only after the work started by `onLeading` has stopped. */
  signal: AbortSignal;
  /** Stops renewing without releasing the lease (shutdown timed out with work running). */
  abandon: AbortSignal;
  /** This process leads; `leaseSignal` aborts when it stops leading; `stillLeading` is the synchronous fence. */
  onLeading(leaseSignal: AbortSignal, stillLeading: () => boolean): void;
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
    c.kubeConfig,
    {
      id: leaseName,
      namespace: options.leaderElectionNamespace,
      leaseDurationMs: options.leaseDurationMs,
      renewDeadlineMs: options.renewDeadlineMs,
      retryPeriodMs: options.retryPeriodMs,
      releaseOnCancel: options.leaderElectionReleaseOnCancel,
      signal: c.signal,
      abandon: c.abandon,
      clock: c.clock,
      logger: c.log,
      ...c.transport,
    },
    {
      onStartedLeading(leaseSignal, stillLeading) {
        metrics.leaderStatus(leaseName, true);
        c.onLeading(leaseSignal, stillLeading);
      },
      onStoppedLeading({ lost }) {
        metrics.leaderStatus(leaseName, false);
        if (lost) c.onLost();
      },
    },
  );
}
