import { describe, expect, it } from 'vitest';
import { nextLeaseSpec, releasedLeaseSpec, sameRecord } from '../../src/leaderelection/lease-record.js';

const t0 = new Date('2030-01-01T00:00:00.000Z');
const at = (ms: number) => new Date(t0.getTime() + ms);

describe('nextLeaseSpec', () => {
  it('creates a fresh lease held by the candidate', () => {
    expect(nextLeaseSpec(undefined, 0, t0, 'me', 15)).toEqual({
      holderIdentity: 'me',
      leaseDurationSeconds: 15,
      acquireTime: '2030-01-01T00:00:00.000000Z',
      renewTime: '2030-01-01T00:00:00.000000Z',
      leaseTransitions: 0,
    });
  });

  it('renews its own lease: only renewTime moves', () => {
    const held = { holderIdentity: 'me', leaseDurationSeconds: 15, acquireTime: 'then', renewTime: 'then', leaseTransitions: 4 };
    expect(nextLeaseSpec(held, 2_500, at(2_500), 'me', 15)).toEqual({ ...held, renewTime: '2030-01-01T00:00:02.500000Z' });
  });

  it("leaves another holder's lease alone until leaseDuration has passed since it was last seen renewed", () => {
    const theirs = { holderIdentity: 'them', leaseDurationSeconds: 15, acquireTime: 'x', renewTime: 'x', leaseTransitions: 2 };
    expect(nextLeaseSpec(theirs, 14_999, at(14_999), 'me', 15)).toBeUndefined();
    expect(nextLeaseSpec(theirs, 15_001, at(15_001), 'me', 15)).toEqual({
      holderIdentity: 'me',
      leaseDurationSeconds: 15,
      acquireTime: '2030-01-01T00:00:15.001000Z',
      renewTime: '2030-01-01T00:00:15.001000Z',
      leaseTransitions: 3,
    });
  });

  it("judges expiry by the holder's leaseDurationSeconds and local observation, not the holder's clock", () => {
    const skewed = { holderIdentity: 'them', leaseDurationSeconds: 60, renewTime: '1999-01-01T00:00:00.000000Z', leaseTransitions: 0 };
    expect(nextLeaseSpec(skewed, 30_000, at(30_000), 'me', 15)).toBeUndefined();
    expect(nextLeaseSpec(skewed, 60_001, at(60_001), 'me', 15)?.holderIdentity).toBe('me');
  });

  it('takes a released lease at once, counting the transition', () => {
    const released = releasedLeaseSpec({ holderIdentity: 'them', leaseDurationSeconds: 15, leaseTransitions: 1 }, t0);
    expect(released).toEqual({ leaseTransitions: 1, leaseDurationSeconds: 1, acquireTime: '2030-01-01T00:00:00.000000Z', renewTime: '2030-01-01T00:00:00.000000Z' });
    expect(nextLeaseSpec(released, 1, at(1), 'me', 15)).toMatchObject({ holderIdentity: 'me', leaseTransitions: 2 });
  });
});

describe('sameRecord', () => {
  it('tells a renewal apart from the same observation', () => {
    const a = { holderIdentity: 'x', renewTime: '1', leaseTransitions: 0, leaseDurationSeconds: 15 };
    expect(sameRecord(a, { ...a })).toBe(true);
    expect(sameRecord(a, { ...a, renewTime: '2' })).toBe(false);
    expect(sameRecord(undefined, a)).toBe(false);
  });
});
