import { Lease } from '../client/kinds.js';
import { formatMicroTime } from '../client/time.js';
import { createLeaseLock } from '../leaderelection/lease-lock.js';
import type { LoggerLike } from '../rest/logger.js';
import { resourcePath } from '../rest/paths.js';
import { sleep } from '../rest/sleep.js';
import type { Transport } from '../rest/transport.js';
import { withDeadline } from '../time/deadline.js';
import { RING_LABEL, shardLeaseName } from './labels.js';

/** Timing of a shard's Lease, as for leader election. */
export interface LeaseTiming {
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
}

/** This replica's membership of a ring. */
export interface Membership {
  /**
   * Whether this replica may act as a shard now: its Lease was renewed (the request sent)
   * less than `renewDeadlineMs` ago on the monotonic clock. The sharder reassigns a shard's
   * objects only `leaseDurationMs` after it last saw a renewal, so a replica cut off from
   * the API server stops before its objects move.
   */
  alive(): boolean;
  /** Resolves once the Lease is first written (the sharder assigns nothing before). */
  readonly joined: Promise<void>;
  /**
   * Keeps the Lease renewed until `signal` aborts, then stops renewing without releasing
   * it: a replica restarted under the same id within the lease duration keeps its objects.
   */
  run(signal: AbortSignal): Promise<void>;
}

/**
 * Creates the membership of `shard` in `ring`: one Lease `<ring>-shard-<shard>` in `namespace`;
 * `onLost` is called when a renewal has not succeeded within the renew deadline; each
 * renewal writes `annotations()` too (the server-side mode's acknowledged generation).
 */
export function createMembership(
  transport: Transport,
  namespace: string,
  ring: string,
  shard: string,
  timing: LeaseTiming,
  log: LoggerLike,
  onLost: () => void,
  annotations: () => Record<string, string> = () => ({}),
): Membership {
  const name = shardLeaseName(ring, shard);
  const lock = createLeaseLock(transport, namespace, name);
  let renewedAt = -Infinity;
  let markJoined!: () => void;
  const joined = new Promise<void>((resolve) => (markJoined = resolve));
  const spec = (current: Lease['spec'] | undefined) => {
    const stamp = formatMicroTime(new Date());
    return {
      ...current,
      holderIdentity: shard,
      leaseDurationSeconds: Math.ceil(timing.leaseDurationMs / 1000),
      renewTime: stamp,
      ...(current?.acquireTime ? {} : { acquireTime: stamp }),
    };
  };

  /** The Lease as last written: renewing it takes one request; a conflict reads it again. */
  let last: Lease | undefined;
  /** One renewal; true once the Lease carries this renewal. */
  const renew = async (signal: AbortSignal): Promise<boolean> => {
    const sentAt = performance.now();
    const current = last ?? (await lock.get(signal));
    if (!current) {
      const body: Lease = {
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: { name, namespace, labels: { [RING_LABEL]: ring }, annotations: annotations() },
        spec: spec(undefined),
      };
      last = await transport.request<Lease>({ method: 'POST', path: resourcePath(Lease, namespace), body, signal });
    } else {
      const labelled = { ...current.metadata, labels: { ...current.metadata?.labels, [RING_LABEL]: ring }, annotations: { ...current.metadata?.annotations, ...annotations() } };
      last = await lock.update({ ...current, metadata: labelled }, spec(current.spec), signal);
    }
    if (!last) return false;
    renewedAt = sentAt;
    return true;
  };

  return {
    alive: () => performance.now() - renewedAt < timing.renewDeadlineMs,
    joined,
    async run(signal) {
      let logged = false;
      while (!signal.aborted) {
        const attempt = withDeadline(signal, timing.renewDeadlineMs);
        try {
          if (await renew(attempt.signal)) {
            if (!logged) log.info({ lease: name, shard }, 'Joined the shard ring');
            logged = true;
            markJoined();
          }
        } catch (error) {
          last = undefined;
          if (!signal.aborted) log.error({ err: error, lease: name }, 'Could not renew the shard Lease');
        } finally {
          attempt.clear();
        }
        if (logged && !signal.aborted && performance.now() - renewedAt >= timing.renewDeadlineMs) {
          // Its objects may be reassigned once the Lease expires: stop, as a lost leader does.
          log.error({ lease: name, shard }, 'Shard Lease not renewed within the renew deadline');
          onLost();
          return;
        }
        await sleep(timing.retryPeriodMs, signal);
      }
    },
  };
}
