import { formatMicroTime } from '../client/time.js';
import type { LeaseSpec } from './lease-lock.js';

/**
 * The spec this candidate writes to take or keep the lease at `now`, or `undefined` when
 * another holder's lease is still valid. Validity is judged by `sinceObservedMs`, how long
 * ago (on this process's monotonic clock) this candidate first saw the current record,
 * never by the holder's `renewTime` nor by wall-clock time: clocks of different machines
 * need not agree, and a wall clock may jump. `now` only stamps the record.
 */
export function nextLeaseSpec(
  current: LeaseSpec | undefined,
  sinceObservedMs: number,
  now: Date,
  identity: string,
  leaseDurationSeconds: number,
): LeaseSpec | undefined {
  const stamp = formatMicroTime(now);
  if (!current) {
    return { holderIdentity: identity, leaseDurationSeconds, acquireTime: stamp, renewTime: stamp, leaseTransitions: 0 };
  }
  const holder = current.holderIdentity ?? '';
  if (holder === identity) {
    return { ...current, leaseDurationSeconds, renewTime: stamp };
  }
  const duration = (current.leaseDurationSeconds ?? leaseDurationSeconds) * 1000;
  if (holder !== '' && sinceObservedMs < duration) return undefined;
  return {
    ...current,
    holderIdentity: identity,
    leaseDurationSeconds,
    acquireTime: stamp,
    renewTime: stamp,
    leaseTransitions: (current.leaseTransitions ?? 0) + 1,
  };
}

/** The spec a leader leaves behind on a clean shutdown: no holder, so the next candidate takes over at once. */
export function releasedLeaseSpec(current: LeaseSpec, now: Date): LeaseSpec {
  const stamp = formatMicroTime(now);
  return { leaseTransitions: current.leaseTransitions, leaseDurationSeconds: 1, acquireTime: stamp, renewTime: stamp };
}

/** Whether two observations are the same record (any renewal changes `renewTime`). */
export function sameRecord(a: LeaseSpec | undefined, b: LeaseSpec | undefined): boolean {
  return (
    a?.holderIdentity === b?.holderIdentity &&
    a?.renewTime === b?.renewTime &&
    a?.acquireTime === b?.acquireTime &&
    a?.leaseTransitions === b?.leaseTransitions &&
    a?.leaseDurationSeconds === b?.leaseDurationSeconds
  );
}
