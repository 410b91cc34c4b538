import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import type { KubeConfig } from '@kubernetes/client-node';
import type { Lease } from '../client/kinds.js';
import { silentLogger, type LoggerLike } from '../client/logger.js';
import { createTransport } from '../client/transport.js';
import { sleep } from '../client/sleep.js';
import { createLeaseLock, type LeaseLock } from './lease-lock.js';
import { nextLeaseSpec, releasedLeaseSpec, sameRecord } from './lease-record.js';
import type { LeaderElectionOptions } from './types.js';

/** What the elector tells its user. */
export interface LeaderCallbacks {
  /**
   * This process now holds the lease. `signal` aborts when it stops leading: the work
   * started here must stop then.
   */
  onStartedLeading(signal: AbortSignal): void;
  /**
   * Leading ended: `lost` when the lease could not be renewed within the renew deadline
   * (another process may lead now: exit), not when it was released on shutdown.
   */
  onStoppedLeading(info: { lost: boolean }): void;
  /** The lease holder changed, to this process or another; for logs. */
  onNewLeader?(identity: string): void;
}

/** What a run of the elector needs besides its settings. */
export interface LeaderElectionRun {
  /**
   * Ends the election. Abort it only once the work started by `onStartedLeading` has
   * stopped: the lease is renewed until then, then released (unless `releaseOnCancel` is
   * false), so no other replica starts while this one still works.
   */
  signal: AbortSignal;
  logger?: LoggerLike;
}

const SERVICE_ACCOUNT_NAMESPACE = '/var/run/secrets/kubernetes.io/serviceaccount/namespace';
/** client-go's JitterFactor: acquire attempts are spread over retryPeriod × [1, 2.2). */
const JITTER = 1.2;

/**
 * Campaigns for a `coordination.k8s.io/v1` Lease, like client-go's leader election:
 * candidates try to acquire every `retryPeriod` (with jitter); a lease whose holder has
 * not renewed for `leaseDuration` (judged by local observation, not the holder's clock)
 * is taken over, with `leaseTransitions` incremented; the leader renews every
 * `retryPeriod` and gives up if no renewal succeeds within `renewDeadline`. Every write
 * carries the Lease's resourceVersion, so two candidates never both win. Resolves when
 * leadership is lost or the run's signal aborts.
 */
export async function runLeaderElection(
  kubeConfig: KubeConfig,
  options: LeaderElectionOptions & LeaderElectionRun,
  callbacks: LeaderCallbacks,
): Promise<void> {
  const leaseDurationMs = options.leaseDurationMs ?? 15_000;
  const renewDeadlineMs = options.renewDeadlineMs ?? 10_000;
  const retryPeriodMs = options.retryPeriodMs ?? 2_000;
  if (leaseDurationMs <= renewDeadlineMs) throw new Error('leader election: leaseDurationMs must be greater than renewDeadlineMs');
  if (renewDeadlineMs <= JITTER * retryPeriodMs) throw new Error(`leader election: renewDeadlineMs must be greater than ${JITTER} × retryPeriodMs`);
  const leaseDurationSeconds = Math.ceil(leaseDurationMs / 1000);
  const namespace = options.namespace ?? podNamespace() ?? 'default';
  const identity = options.identity ?? `${hostname()}_${randomUUID()}`;
  const logger = options.logger ?? silentLogger;
  const signal = options.signal;
  const lock = createLeaseLock(createTransport(kubeConfig), namespace, options.id);
  const where = { lease: `${namespace}/${options.id}`, identity };

  let lease: Lease | undefined;
  let observedAt = 0;
  let reportedHolder: string | undefined;

  function observe(next: Lease | undefined): void {
    if (!sameRecord(next?.spec, lease?.spec)) observedAt = Date.now();
    lease = next;
    const holder = next?.spec?.holderIdentity;
    if (holder && holder !== reportedHolder) {
      reportedHolder = holder;
      logger.info({ ...where, holder }, 'new leader');
      callbacks.onNewLeader?.(holder);
    }
  }

  /** One attempt to take or keep the lease; true when this process holds it now. */
  async function tryAcquireOrRenew(attemptSignal: AbortSignal): Promise<boolean> {
    const leading = lease?.spec?.holderIdentity === identity;
    // A leader renews straight from the copy it wrote last; only a failed write costs a read.
    if (leading && lease) {
      const renewed = await lock.update(lease, nextLeaseSpec(lease.spec, observedAt, new Date(), identity, leaseDurationSeconds)!, attemptSignal);
      if (renewed) {
        observe(renewed);
        return true;
      }
    }
    const current = await lock.get(attemptSignal);
    observe(current);
    const spec = nextLeaseSpec(current?.spec, observedAt, new Date(), identity, leaseDurationSeconds);
    if (!spec) return false;
    const written = current ? await lock.update(current, spec, attemptSignal) : await lock.create(spec, attemptSignal);
    if (!written) return false;
    observe(written);
    return true;
  }

  async function attempt(deadlineMs: number): Promise<boolean> {
    const attemptSignal = AbortSignal.any([signal, AbortSignal.timeout(Math.max(1, deadlineMs))]);
    try {
      return await tryAcquireOrRenew(attemptSignal);
    } catch (error) {
      if (!signal.aborted) logger.warn({ ...where, err: error }, 'leader election: lease request failed');
      return false;
    }
  }

  // Acquire.
  while (!signal.aborted) {
    if (await attempt(renewDeadlineMs)) break;
    await sleep(retryPeriodMs * (1 + JITTER * Math.random()), signal);
  }
  if (signal.aborted) return;

  logger.info(where, 'acquired the lease: leading');
  const leadership = new AbortController();
  callbacks.onStartedLeading(leadership.signal);

  // Renew: each round tries every retryPeriod until one renewal succeeds or renewDeadline passes.
  let lost = false;
  while (!signal.aborted && !lost) {
    await sleep(retryPeriodMs, signal);
    const roundEnds = Date.now() + renewDeadlineMs;
    for (;;) {
      if (signal.aborted) break;
      if (await attempt(roundEnds - Date.now())) break;
      if (Date.now() + retryPeriodMs >= roundEnds) {
        lost = true;
        break;
      }
      await sleep(retryPeriodMs, signal);
    }
  }

  leadership.abort();
  if (lost) {
    logger.error({ ...where, renewDeadlineMs }, 'leader election lost: the lease was not renewed in time');
  } else if (options.releaseOnCancel !== false) {
    await release(lock, lease, renewDeadlineMs, logger, where);
  }
  callbacks.onStoppedLeading({ lost });
}

async function release(lock: LeaseLock, lease: Lease | undefined, timeoutMs: number, logger: LoggerLike, where: object): Promise<void> {
  if (!lease?.spec) return;
  try {
    const released = await lock.update(lease, releasedLeaseSpec(lease.spec, new Date()), AbortSignal.timeout(timeoutMs));
    if (released) logger.info(where, 'released the lease');
  } catch (error) {
    logger.warn({ ...where, err: error }, 'leader election: could not release the lease');
  }
}

function podNamespace(): string | undefined {
  try {
    return readFileSync(SERVICE_ACCOUNT_NAMESPACE, 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}
