import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createWorkQueue, exponentialBackoff } from '../../src/queue/index.js';

/** Resolves with what `get()` hands out if it does so before the microtask queue drains. */
async function tryGet(promise: Promise<string | undefined>): Promise<string | undefined | 'nothing'> {
  const none = Symbol('none');
  const result = await Promise.race([promise, new Promise<typeof none>((r) => setImmediate(() => r(none)))]);
  return result === none ? 'nothing' : (result as string | undefined);
}

describe('work queue: dedup and exclusivity', () => {
  it('hands out a key added several times once', async () => {
    const q = createWorkQueue();
    q.add('ns/a');
    q.add('ns/a');
    q.add('ns/b');
    q.add('ns/a');
    expect(q.len()).toBe(2);
    expect(await q.get()).toBe('ns/a');
    expect(await q.get()).toBe('ns/b');
    expect(await tryGet(q.get())).toBe('nothing');
  });

  it('hands keys out in the order they were first added', async () => {
    const q = createWorkQueue();
    for (const k of ['c', 'a', 'b', 'a', 'c']) q.add(k);
    expect([await q.get(), await q.get(), await q.get()]).toEqual(['c', 'a', 'b']);
  });

  it('never hands a key to a second worker while the first is processing it', async () => {
    const q = createWorkQueue();
    q.add('k');
    const first = await q.get();
    q.add('k');
    const second = q.get();
    expect(await tryGet(second)).toBe('nothing');
    q.done(first!);
    expect(await second).toBe('k');
  });

  it('runs a key exactly once more when added many times during processing', async () => {
    const q = createWorkQueue();
    q.add('k');
    const key = await q.get();
    q.add('k');
    q.add('k');
    q.add('k');
    expect(q.len()).toBe(0);
    q.done(key!);
    expect(q.len()).toBe(1);
    expect(await q.get()).toBe('k');
    q.done('k');
    expect(await tryGet(q.get())).toBe('nothing');
  });

  it('does not re-run a key that was not added during processing', async () => {
    const q = createWorkQueue();
    q.add('k');
    q.done((await q.get())!);
    expect(q.len()).toBe(0);
    expect(await tryGet(q.get())).toBe('nothing');
  });

  it('wakes waiting workers in turn, one key each', async () => {
    const q = createWorkQueue();
    const w1 = q.get();
    const w2 = q.get();
    q.add('a');
    q.add('b');
    expect([await w1, await w2]).toEqual(['a', 'b']);
  });
});

describe('work queue: priorities', () => {
  it('hands out normal keys before low ones, each in the order added', async () => {
    const q = createWorkQueue();
    for (const k of ['l1', 'l2']) q.add(k, 'low');
    q.add('n1');
    q.add('l3', 'low');
    q.add('n2');
    expect(q.len()).toBe(5);
    const order = [];
    for (let i = 0; i < 5; i++) order.push(await q.get());
    expect(order).toEqual(['n1', 'n2', 'l1', 'l2', 'l3']);
    expect(await tryGet(q.get())).toBe('nothing');
  });

  it('moves a pending low key up when it is added as normal, and hands it out once', async () => {
    const q = createWorkQueue();
    for (const k of ['a', 'b', 'c']) q.add(k, 'low');
    q.add('c');
    q.add('c', 'low');
    expect(q.len()).toBe(3);
    expect([await q.get(), await q.get(), await q.get()]).toEqual(['c', 'a', 'b']);
    expect(await tryGet(q.get())).toBe('nothing');
  });

  it('re-runs a key added during processing at the highest priority it was added with', async () => {
    const q = createWorkQueue();
    q.add('k', 'low');
    expect(await q.get()).toBe('k');
    q.add('x', 'low');
    q.add('k', 'low');
    q.add('k');
    q.done('k');
    expect([await q.get(), await q.get()]).toEqual(['k', 'x']);
  });
});

describe('work queue: delayed adds', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('adds a key only when its delay has passed', () => {
    const q = createWorkQueue();
    q.addAfter('k', 100);
    vi.advanceTimersByTime(99);
    expect(q.len()).toBe(0);
    vi.advanceTimersByTime(1);
    expect(q.len()).toBe(1);
  });

  it('keeps the earliest time when a waiting key is added again sooner', () => {
    const q = createWorkQueue();
    q.addAfter('k', 1000);
    q.addAfter('k', 50);
    vi.advanceTimersByTime(50);
    expect(q.len()).toBe(1);
  });

  it('keeps the earliest time when a waiting key is added again later, and fires once', async () => {
    const q = createWorkQueue();
    q.addAfter('k', 50);
    q.addAfter('k', 1000);
    vi.advanceTimersByTime(50);
    expect(q.len()).toBe(1);
    q.done((await q.get())!);
    vi.advanceTimersByTime(2000);
    expect(q.len()).toBe(0);
  });

  it('adds at once when the delay is zero or negative', () => {
    const q = createWorkQueue();
    q.addAfter('a', 0);
    q.addAfter('b', -5);
    expect(q.len()).toBe(2);
  });

  it('releases delayed keys in time order across keys', async () => {
    const q = createWorkQueue();
    q.addAfter('late', 300);
    q.addAfter('early', 100);
    q.addAfter('middle', 200);
    vi.advanceTimersByTime(300);
    expect([await q.get(), await q.get(), await q.get()]).toEqual(['early', 'middle', 'late']);
  });

  it('keeps one timer however many keys wait', () => {
    const q = createWorkQueue();
    for (let i = 0; i < 500; i++) q.addAfter(`k${i}`, 1000 + i);
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(1250);
    expect(q.len()).toBe(251);
    expect(vi.getTimerCount()).toBe(1);
  });

  it('waits out delays longer than setTimeout can express', () => {
    const q = createWorkQueue();
    const days30 = 30 * 24 * 3600 * 1000;
    q.addAfter('k', days30);
    vi.advanceTimersByTime(days30 - 1);
    expect(q.len()).toBe(0);
    vi.advanceTimersByTime(1);
    expect(q.len()).toBe(1);
  });
});

describe('work queue: rate-limited retries', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** Retries `key` once through the queue; returns after how many ms it came back. */
  async function retryDelay(q: ReturnType<typeof createWorkQueue>, key: string): Promise<number> {
    q.addRateLimited(key);
    let waited = 0;
    while (q.len() === 0) {
      vi.advanceTimersByTime(1);
      waited++;
    }
    q.done((await q.get())!);
    return waited;
  }

  it('backs off 5 ms, 10 ms, 20 ms, ... per key', async () => {
    const q = createWorkQueue();
    const delays = [];
    for (let i = 0; i < 6; i++) delays.push(await retryDelay(q, 'k'));
    expect(delays).toEqual([5, 10, 20, 40, 80, 160]);
    expect(q.numRequeues('k')).toBe(6);
  });

  it('starts over after forget', async () => {
    const q = createWorkQueue();
    await retryDelay(q, 'k');
    await retryDelay(q, 'k');
    q.forget('k');
    expect(q.numRequeues('k')).toBe(0);
    expect(await retryDelay(q, 'k')).toBe(5);
  });

  it('keeps each key on its own backoff', async () => {
    const q = createWorkQueue();
    for (let i = 0; i < 4; i++) await retryDelay(q, 'failing');
    expect(await retryDelay(q, 'other')).toBe(5);
  });

  it('caps the backoff at 1000 s', () => {
    const limiter = exponentialBackoff();
    const delays = Array.from({ length: 30 }, () => limiter.when('k'));
    expect(delays[17]).toBe(5 * 2 ** 17);
    expect(delays[18]).toBe(1_000_000);
    expect(delays[29]).toBe(1_000_000);
  });
});

describe('work queue: shutdown', () => {
  it('releases waiting workers and hands out nothing more', async () => {
    const q = createWorkQueue();
    const waiting = q.get();
    q.shutDown();
    expect(await waiting).toBeUndefined();
    q.add('k');
    expect(await q.get()).toBeUndefined();
    expect(q.isShuttingDown()).toBe(true);
  });

  it('stops handing out keys that were already pending', async () => {
    const q = createWorkQueue();
    q.add('a');
    q.add('b');
    q.shutDown();
    expect(await q.get()).toBeUndefined();
  });

  it('drops delayed keys', () => {
    vi.useFakeTimers();
    try {
      const q = createWorkQueue();
      q.addAfter('k', 10);
      q.shutDown();
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('with drain, resolves only after in-flight keys are done', async () => {
    const q = createWorkQueue();
    q.add('a');
    q.add('b');
    const a = (await q.get())!;
    const b = (await q.get())!;
    let drained = false;
    const drain = q.shutDownWithDrain().then(() => {
      drained = true;
    });
    q.done(a);
    await tryGet(Promise.resolve(undefined));
    expect(drained).toBe(false);
    q.done(b);
    await drain;
    expect(drained).toBe(true);
  });

  it('with drain and nothing in flight, resolves at once', async () => {
    const q = createWorkQueue();
    await expect(q.shutDownWithDrain()).resolves.toBeUndefined();
  });
});

describe('work queue: metrics hooks', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('reports adds, depth, wait and work time, retries and in-flight work', async () => {
    const seen = { adds: 0, depth: [] as number[], waited: [] as number[], worked: [] as number[], retries: 0 };
    const q = createWorkQueue({
      metrics: {
        added: () => void seen.adds++,
        depth: (n) => void seen.depth.push(n),
        handedOut: (s) => void seen.waited.push(s),
        finished: (s) => void seen.worked.push(s),
        retried: () => void seen.retries++,
      },
    });
    q.add('a');
    q.add('a');
    q.add('b');
    expect(seen.adds).toBe(2);
    expect(seen.depth).toEqual([1, 2]);

    vi.advanceTimersByTime(250);
    const a = (await q.get())!;
    expect(seen.waited).toEqual([0.25]);
    expect(seen.depth.at(-1)).toBe(1);

    vi.advanceTimersByTime(1500);
    const b = (await q.get())!;
    vi.advanceTimersByTime(500);
    expect(q.inFlight()).toEqual({ unfinishedWorkSeconds: 2.5, longestRunningProcessorSeconds: 2 });

    q.done(a);
    q.done(b);
    expect(seen.worked).toEqual([2, 0.5]);
    expect(q.inFlight()).toEqual({ unfinishedWorkSeconds: 0, longestRunningProcessorSeconds: 0 });

    q.addRateLimited('a');
    q.addAfter('b', 10);
    expect(seen.retries).toBe(2);
  });
});
