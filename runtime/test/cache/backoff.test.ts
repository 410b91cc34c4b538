import { describe, expect, it } from 'vitest';
import { backoffDelay } from '../../src/cache/index.js';

describe('backoffDelay', () => {
  it('doubles from 0.8 s and stops at 30 s', () => {
    const noJitter = () => 0;
    expect([1, 2, 3, 4, 5, 6, 7, 8, 20].map((n) => backoffDelay(n, {}, noJitter))).toEqual([
      800, 1600, 3200, 6400, 12_800, 25_600, 30_000, 30_000, 30_000,
    ]);
  });

  it('stretches each delay by up to its own length at random, never past the ceiling', () => {
    expect(backoffDelay(1, {}, () => 0.5)).toBe(1200);
    expect(backoffDelay(1, {}, () => 0.999)).toBeCloseTo(1599.2);
    expect(backoffDelay(6, {}, () => 0.999)).toBe(30_000);
    const spread = new Set(Array.from({ length: 50 }, () => backoffDelay(2)));
    expect(spread.size).toBeGreaterThan(40);
    for (const delay of spread) {
      expect(delay).toBeGreaterThanOrEqual(1600);
      expect(delay).toBeLessThan(3200);
    }
  });

  it('takes other bounds', () => {
    expect(backoffDelay(1, { initialMs: 100, maxMs: 250, jitter: 0 })).toBe(100);
    expect(backoffDelay(3, { initialMs: 100, maxMs: 250, jitter: 0 })).toBe(250);
  });
});
