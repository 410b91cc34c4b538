import { describe, expect, it } from 'vitest';
import { createTtlCache } from '../../src/manager/ttl-cache.js';

describe('the cache of access reviews', () => {
  it('keeps an accepted answer longer than a rejected one, and shares a review in flight', async () => {
    let clock = 0;
    const cache = createTtlCache<boolean>((ok) => (ok ? 60_000 : 10_000), 100, () => clock);
    let reviews = 0;
    const review = (answer: boolean) => async () => {
      reviews++;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return answer;
    };

    expect(await Promise.all([cache.get('good', review(true)), cache.get('good', review(true))])).toEqual([true, true]);
    expect(await cache.get('bad', review(false))).toBe(false);
    expect(reviews).toBe(2);

    clock = 10_001;
    expect(await cache.get('good', review(true))).toBe(true);
    expect(await cache.get('bad', review(true))).toBe(true);
    expect(reviews).toBe(3);

    clock = 60_001;
    await cache.get('good', review(true));
    expect(reviews).toBe(4);
  });

  it('does not remember a failed review: the next request asks again', async () => {
    const cache = createTtlCache<boolean>(() => 60_000);
    await expect(cache.get('token', () => Promise.reject(new Error('API server unavailable')))).rejects.toThrow('API server unavailable');
    expect(await cache.get('token', async () => true)).toBe(true);
  });

  it('holds at most maxEntries, dropping the oldest, so a flood of bogus tokens cannot grow it without bound', async () => {
    const cache = createTtlCache<number>(() => 60_000, 2);
    let reviews = 0;
    const review = (n: number) => async () => (reviews++, n);
    await cache.get('a', review(1));
    await cache.get('b', review(2));
    await cache.get('c', review(3));
    expect(await cache.get('c', review(0))).toBe(3);
    expect(await cache.get('b', review(0))).toBe(2);
    expect(await cache.get('a', review(4))).toBe(4);
    expect(reviews).toBe(4);
  });
});
