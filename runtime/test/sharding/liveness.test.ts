import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { Lease } from '../../src/client/kinds.js';
import { createLiveness } from '../../src/sharding/liveness.js';

const lease = (shard: string, renewTime: Date, seconds = 1) =>
  ({ metadata: { name: `ring-shard-${shard}`, namespace: 'default', uid: shard, resourceVersion: '1' }, spec: { holderIdentity: shard, leaseDurationSeconds: seconds, renewTime: renewTime.toISOString() } }) as never as Parameters<ReturnType<typeof createLiveness>['observe']>[0] & Lease;

describe('shard liveness as the sharder sees it', () => {
  it('reports members, and drops a shard once its Lease goes unrenewed for its duration, by timer', async () => {
    const changes: string[][] = [];
    const liveness = createLiveness(1000, (members) => changes.push(members));
    const stop = new AbortController();
    liveness.observe(lease('b', new Date()));
    liveness.observe(lease('a', new Date()));
    liveness.start(stop.signal);
    expect(liveness.members()).toEqual(['a', 'b']);
    // `a` keeps renewing, `b` stops.
    for (let i = 0; i < 6; i++) {
      await sleep(250);
      liveness.observe(lease('a', new Date(Date.now() + i + 1)));
    }
    expect(liveness.members()).toEqual(['a']);
    expect(liveness.isLive('b')).toBe(false);
    expect(changes).toEqual([['a', 'b'], ['a']]);
    stop.abort();
  });

  it('dates a Lease seen for the first time by its renewTime: a shard dead for longer is not counted', () => {
    const liveness = createLiveness(1000, () => {});
    liveness.observe(lease('old', new Date(Date.now() - 5_000)));
    liveness.observe(lease('fresh', new Date()));
    const stop = new AbortController();
    liveness.start(stop.signal);
    expect(liveness.members()).toEqual(['fresh']);
    stop.abort();
  });

  it('forgets a released Lease (no holder) at once', () => {
    const liveness = createLiveness(1000, () => {});
    const stop = new AbortController();
    liveness.observe(lease('a', new Date()));
    liveness.start(stop.signal);
    liveness.observe({ ...lease('a', new Date()), spec: { leaseDurationSeconds: 1 } } as never);
    expect(liveness.members()).toEqual([]);
    stop.abort();
  });
});
