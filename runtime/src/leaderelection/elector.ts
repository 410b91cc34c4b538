import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import type { KubeConfig } from '../rest/kubeconfig.js';
import type { Lease } from '../client/kinds.js';
import { silentLogger, type LoggerLike } from '../rest/logger.js';
import type { TokenBucket } from '../rest/token-bucket.js';
import type { TransportObserver } from '../rest/transport.js';
import { clusterOf, type Cluster } from '../rest/cluster.js';
import { everyOn, sleepOn, systemClock, type Clock } from '../time/clock.js';
import { withDeadline } from '../time/deadline.js';
import { createLeaseLock, type LeaseLock } from './lease-lock.js';
import { nextLeaseSpec, releasedLeaseSpec, sameRecord } from './lease-record.js';
import type { LeaderElectionOptions } from './types.js';

/** How this process came to lead, for work that must pick up where the last holder stopped. */
export interface Takeover {
  /**
   * When (on the election clock's `now()`) this process last saw another holder's record
   * change, its last renewal seen; undefined when the Lease was free or released. That
   * holder may have stopped any time after it, so changes since then may be unserved.
   */
  previousHolderSeenAt?: number;
}

/** What the elector tells its user. */
export interface LeaderCallbacks {
  /**
   * This process now holds the lease. `signal` aborts when it stops leading: the work
   * started here must stop then. `stillLeading()` answers synchronously from the
   * monotonic clock (and aborts `signal` when the answer turns false): call it right
   * before a write, since after an event-loop stall no timer may have run yet.
   */
  onStartedLeading(signal: AbortSignal, stillLeading: () => boolean, takeover: Takeover): void;
  /**
   * Leading ended: `lost` when the lease could not be renewed within the renew deadline
   * or another holder was seen (another process may lead now: exit), not when it was
   * released on shutdown.
   */
  onStoppedLeading(info: { lost: boolean }): void;
  /** The lease holder changed, to this process or another; for logs. */
  onNewLeader?(identity: string): void;
}

/**
 * Time as the elector reads it; tests inject one to step the wall clock, or a memory
 * cluster's fake clock, whose timers then drive the retries, renewals and the watchdog.
 */
export interface ElectionClock {
  /** Monotonic milliseconds: every duration is measured on this. */
  now(): number;
  /** Wall-clock time: only stamps `acquireTime` / `renewTime` for people reading the Lease. */
  wall(): Date;
  /** Timers of the retry period and the watchdog; left out, real timers. */
  setTimer?: Clock['setTimer'];
}

/** What a run of the elector needs besides its settings. */
export interface LeaderElectionRun {
  /**
   * Ends the election. Abort it only once the work started by `onStartedLeading` has
   * stopped: the lease is renewed until then, then released (unless `releaseOnCancel` is
   * false), so no other replica starts while this one still works.
   */
  signal: AbortSignal;
  /**
   * Stops renewing without releasing: the lease then expires by itself after
   * `leaseDurationMs`. For a shutdown that timed out with work still running.
   */
  abandon?: AbortSignal;
  logger?: LoggerLike;
  /** Default: the cluster's clock (real time for a kubeconfig). */
  clock?: ElectionClock;
  /** Client-side rate limit of the Lease reads and writes, with a kubeconfig only (a {@link Cluster} has its own). Off by default. */
  rateLimiter?: TokenBucket;
  /** Receives each response, retry and rate-limiter wait (for `rest_client_*` metrics); with a kubeconfig only. */
  observer?: TransportObserver;
}

const SERVICE_ACCOUNT_NAMESPACE = '/var/run/secrets/kubernetes.io/serviceaccount/namespace';
/** client-go's JitterFactor: acquire attempts are spread over retryPeriod × [1, 2.2). */
const JITTER = 1.2;
/** How often the watchdog looks at the event loop and the renew deadline. */
const WATCHDOG_MS = 250;
/** An event-loop stall this long is logged. */
const STALL_WARN_MS = 1_000;


/**
 * How one try to take or keep the lease ended. `sentAt` is when the write that took or
 * kept it was sent: the renew deadline counts from there, never from the start of a try
 * whose read was slow (client-go starts its renew deadline once the lease is acquired).
 */
type Attempt = { outcome: 'held'; sentAt: number } | { outcome: 'refused' | 'other-holder' };

const REFUSED: Attempt = { outcome: 'refused' };

/**
 * Campaigns for a `coordination.k8s.io/v1` Lease, like client-go's leader election:
 * candidates try to acquire every `retryPeriod` (with jitter); a lease whose holder has
 * not renewed for `leaseDuration` (judged by local observation on the monotonic clock,
 * not the holder's clock) is taken over, with `leaseTransitions` incremented; the leader
 * renews every `retryPeriod`. Leadership is lost the moment the write that last took or
 * renewed the lease was sent more than `renewDeadline` ago (a follower can take over only
 * `leaseDuration` after it saw that write, so the leader stops first) or another holder is
 * seen. As in client-go, the deadline runs from the acquisition: a try that took long to
 * read the Lease (a GET the REST layer retried through an outage) and then won it leads
 * for a whole renew deadline, never loses at once what it just won. A
 * watchdog checks that deadline every 250 ms and logs event-loop stalls; the
 * `stillLeading` fence checks it synchronously. Every write carries the Lease's
 * resourceVersion, so two candidates never both win. Resolves when leadership is lost or
 * the run's signal aborts.
 */
export async function runLeaderElection(
  cluster: Cluster | KubeConfig,
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
  const signal = options.abandon ? AbortSignal.any([options.signal, options.abandon]) : options.signal;
  const target = clusterOf(cluster, { rateLimiter: options.rateLimiter, observer: options.observer }, 'runLeaderElection');
  const { transport } = target;
  // The cluster's clock unless one is given: on a memory cluster, its fake time.
  const given: ElectionClock = options.clock ?? target.clock;
  const clock: Clock = { now: () => given.now(), wall: () => given.wall(), setTimer: given.setTimer ? given.setTimer.bind(given) : systemClock.setTimer };
  const lock = createLeaseLock(transport, namespace, options.id);
  const where = { lease: `${namespace}/${options.id}`, identity };

  let lease: Lease | undefined;
  let observedAt = 0;
  const takeover: Takeover = {};
  let reportedHolder: string | undefined;

  function observe(next: Lease | undefined): void {
    if (!sameRecord(next?.spec, lease?.spec)) observedAt = clock.now();
    lease = next;
    const holder = next?.spec?.holderIdentity;
    if (holder && holder !== reportedHolder) {
      reportedHolder = holder;
      logger.info({ ...where, holder }, 'new leader');
      callbacks.onNewLeader?.(holder);
    }
  }

  const nextSpec = (current: Lease | undefined) => nextLeaseSpec(current?.spec, clock.now() - observedAt, clock.wall(), identity, leaseDurationSeconds);

  /** Sends `write` (an update or create of the Lease), noting when it left. */
  async function writeLease(write: () => Promise<Lease | undefined>): Promise<Attempt> {
    const sentAt = clock.now();
    const written = await write();
    if (!written) return REFUSED;
    observe(written);
    return { outcome: 'held', sentAt };
  }

  /** One attempt to take or keep the lease. */
  async function tryAcquireOrRenew(attemptSignal: AbortSignal): Promise<Attempt> {
    const leading = lease?.spec?.holderIdentity === identity;
    // A leader renews straight from the copy it wrote last; only a failed write costs a read.
    if (leading && lease) {
      const own = lease;
      const renewed = await writeLease(() => lock.update(own, nextSpec(own)!, attemptSignal));
      if (renewed.outcome === 'held') return renewed;
    }
    const current = await lock.get(attemptSignal);
    observe(current);
    const holder = current?.spec?.holderIdentity ?? '';
    if (leading && holder !== identity) return { outcome: 'other-holder' };
    const spec = nextSpec(current);
    if (!spec) return REFUSED;
    if (!leading) takeover.previousHolderSeenAt = holder && holder !== identity ? observedAt : undefined;
    return writeLease(() => (current ? lock.update(current, spec, attemptSignal) : lock.create(spec, attemptSignal)));
  }

  async function attempt(deadlineMs: number): Promise<Attempt> {
    const deadline = withDeadline(signal, Math.max(1, Math.round(deadlineMs)));
    try {
      return await tryAcquireOrRenew(deadline.signal);
    } catch (error) {
      if (!signal.aborted) logger.warn({ ...where, err: error }, 'leader election: lease request failed');
      return REFUSED;
    } finally {
      deadline.clear();
    }
  }

  // Acquire.
  let renewedAt = 0;
  for (;;) {
    if (signal.aborted) return;
    const acquired = await attempt(renewDeadlineMs);
    if (acquired.outcome === 'held') {
      renewedAt = acquired.sentAt;
      break;
    }
    await sleepOn(clock, retryPeriodMs * (1 + JITTER * Math.random()), signal);
  }
  if (signal.aborted) return;

  logger.info(where, 'acquired the lease: leading');
  const leadership = new AbortController();
  let lostBecause: string | undefined;
  const lose = (reason: string): void => {
    if (leadership.signal.aborted) return;
    lostBecause = reason;
    leadership.abort(new Error(`leadership lost: ${reason}`));
  };
  const stillLeading = (): boolean => {
    if (!leadership.signal.aborted && clock.now() - renewedAt >= renewDeadlineMs) {
      lose(`the lease was not renewed within ${renewDeadlineMs} ms`);
    }
    return !leadership.signal.aborted;
  };
  let lastTick = clock.now();
  const watchdog = new AbortController();
  everyOn(
    clock,
    WATCHDOG_MS,
    () => {
      const now = clock.now();
      const stalledMs = now - lastTick - WATCHDOG_MS;
      lastTick = now;
      if (stalledMs >= STALL_WARN_MS) logger.warn({ ...where, stalledMs: Math.round(stalledMs) }, 'event loop was blocked: checking the lease deadline');
      stillLeading();
    },
    watchdog.signal,
  );
  callbacks.onStartedLeading(leadership.signal, stillLeading, takeover);

  // Renew every retryPeriod; each try may last only until the renew deadline.
  try {
    while (!signal.aborted && stillLeading()) {
      await sleepOn(clock, Math.min(retryPeriodMs, Math.max(0, renewedAt + renewDeadlineMs - clock.now())), AbortSignal.any([signal, leadership.signal]));
      if (signal.aborted || !stillLeading()) break;
      const result = await attempt(renewedAt + renewDeadlineMs - clock.now());
      if (result.outcome === 'held') renewedAt = result.sentAt;
      else if (result.outcome === 'other-holder') lose(`another holder took the lease: ${lease?.spec?.holderIdentity ?? ''}`);
    }
  } finally {
    watchdog.abort();
  }

  const lost = lostBecause !== undefined;
  leadership.abort();
  if (lost) {
    logger.error({ ...where, renewDeadlineMs, reason: lostBecause }, 'leader election lost');
  } else if (options.abandon?.aborted) {
    logger.warn(where, 'stopped renewing the lease without releasing it: it expires by itself');
  } else if (options.releaseOnCancel !== false) {
    await release(lock, lease, renewDeadlineMs, logger, where, clock);
  }
  callbacks.onStoppedLeading({ lost });
}

async function release(lock: LeaseLock, lease: Lease | undefined, timeoutMs: number, logger: LoggerLike, where: object, clock: ElectionClock): Promise<void> {
  const holder = lease?.spec?.holderIdentity;
  if (!lease?.spec || !holder) return;
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    let released = await lock.update(lease, releasedLeaseSpec(lease.spec, clock.wall()), signal);
    if (!released) {
      // The stop cut short a renewal the server had applied: this copy is one version
      // behind. Still ours, it is released from the current one; else the next candidate
      // would wait out the Lease duration.
      const current = await lock.get(signal);
      if (current?.spec && current.spec.holderIdentity === holder) released = await lock.update(current, releasedLeaseSpec(current.spec, clock.wall()), signal);
    }
    if (released) logger.info(where, 'released the lease');
    else logger.warn(where, 'leader election: the lease changed before it could be released');
  } catch (error) {
    logger.warn({ ...where, err: error }, 'leader election: could not release the lease');
  }
}

/** The namespace of the pod this process runs in, from its ServiceAccount mount; undefined outside a pod. */
export function podNamespace(): string | undefined {
  try {
    return readFileSync(SERVICE_ACCOUNT_NAMESPACE, 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}
