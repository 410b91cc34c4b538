import { describe, expect, it } from 'vitest';
import { nextMove } from '../../src/sharding/assign.js';
import { placementKey } from '../../src/sharding/labels.js';
import { shardFor } from '../../src/sharding/ring.js';

const keys = Array.from({ length: 30_000 }, (_, i) => `default/widget-${i}`);

describe('the ring (rendezvous hashing)', () => {
  it('spreads keys evenly: each of three shards gets a third, within 3 %', () => {
    const counts = new Map<string, number>();
    for (const key of keys) counts.set(shardFor(key, ['r1', 'r2', 'r3'])!, (counts.get(shardFor(key, ['r1', 'r2', 'r3'])!) ?? 0) + 1);
    for (const shard of ['r1', 'r2', 'r3']) expect(Math.abs(counts.get(shard)! - 10_000)).toBeLessThan(300);
  });

  it('a fourth shard takes only keys it now wins, about a quarter, and no key moves between the old three', () => {
    const moved = keys.filter((key) => shardFor(key, ['r1', 'r2', 'r3']) !== shardFor(key, ['r1', 'r2', 'r3', 'r4']));
    expect(moved.every((key) => shardFor(key, ['r1', 'r2', 'r3', 'r4']) === 'r4')).toBe(true);
    expect(Math.abs(moved.length - 7_500)).toBeLessThan(300);
  });

  it('a removed shard loses only its own keys', () => {
    const moved = keys.filter((key) => shardFor(key, ['r1', 'r2', 'r3']) !== shardFor(key, ['r1', 'r3']));
    expect(moved.every((key) => shardFor(key, ['r1', 'r2', 'r3']) === 'r2')).toBe(true);
  });

  it('answers the same whatever the order of the members, and nothing without members', () => {
    for (const key of keys.slice(0, 1000)) expect(shardFor(key, ['r3', 'r1', 'r2'])).toBe(shardFor(key, ['r1', 'r2', 'r3']));
    expect(shardFor('default/a', [])).toBeUndefined();
  });

  it('places a child by its controller owner of the sharded kind, anything else by itself', () => {
    const owner = { apiVersion: 'test.opgen.dev/v1', kind: 'Widget', name: 'w1', uid: 'u', controller: true };
    const child = { metadata: { name: 'w1-config', namespace: 'ns', ownerReferences: [owner] } };
    expect(placementKey(child, 'Widget', 'test.opgen.dev/v1')).toBe('ns/w1');
    expect(placementKey({ metadata: { name: 'c', namespace: 'ns', ownerReferences: [{ ...owner, controller: false }] } }, 'Widget', 'test.opgen.dev/v1')).toBe('ns/c');
    expect(placementKey(child, 'Gadget', 'test.opgen.dev/v1')).toBe('ns/w1-config');
  });
});

describe('the sharder\'s next move', () => {
  const live = (shard: string) => shard === 'a' || shard === 'b';

  it('assigns an unlabelled object, or one whose shard is dead (a drain left by the dead shard goes too)', () => {
    expect(nextMove({ current: undefined, draining: false }, 'a', live)).toEqual({ type: 'assign', shard: 'a' });
    expect(nextMove({ current: 'dead', draining: false }, 'a', live)).toEqual({ type: 'assign', shard: 'a' });
    expect(nextMove({ current: 'dead', draining: true }, 'b', live)).toEqual({ type: 'assign', shard: 'b' });
  });

  it('never relabels an object a live shard holds: it asks that shard to drain, once', () => {
    expect(nextMove({ current: 'a', draining: false }, 'b', live)).toEqual({ type: 'drain' });
    expect(nextMove({ current: 'a', draining: true }, 'b', live)).toEqual({ type: 'none' });
    // Back on the ring's choice while draining: the drain finishes, then it is assigned again.
    expect(nextMove({ current: 'a', draining: true }, 'a', live)).toEqual({ type: 'none' });
  });

  it('leaves an object in place that is where it belongs, and everything while no shard is alive', () => {
    expect(nextMove({ current: 'a', draining: false }, 'a', live)).toEqual({ type: 'none' });
    expect(nextMove({ current: undefined, draining: false }, undefined, () => false)).toEqual({ type: 'none' });
  });
});
