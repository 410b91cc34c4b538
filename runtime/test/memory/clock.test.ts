import { describe, expect, it } from 'vitest';
import { createFakeClock } from '../../src/testing/memory/clock.js';
import { runUntilIdle } from '../../src/testing/memory/idle.js';
import { runReconcileLoop } from '../../src/controller/reconcile-loop.js';
import { requeue, type Result } from '../../src/controller/requeue.js';
import { every } from '../../src/controller/sources.js';
import { createLogger } from '../../src/log/index.js';
import { createMetrics } from '../../src/metrics/index.js';
import { createWorkQueue } from '../../src/queue/index.js';
import { sleepOn } from '../../src/time/clock.js';
import { createObservedClock } from '../../src/testing/observed-clock.js';

describe('the fake clock', () => {
  it('fires timers in due order when time reaches them, those set by a firing timer too', () => {
    const clock = createFakeClock({ start: '2026-01-01T00:00:00Z' });
    const fired: string[] = [];
    clock.setTimer(() => fired.push('b@200'), 200);
    clock.setTimer(() => {
      fired.push('a@100');
      clock.setTimer(() => fired.push('c@150'), 50);
    }, 100);
    const cancelled = clock.setTimer(() => fired.push('never'), 120);
    cancelled.cancel();
    clock.advance(99);
    expect(fired).toEqual([]);
    clock.advance('101ms');
    expect(fired).toEqual(['a@100', 'c@150', 'b@200']);
    expect(clock.now()).toBe(200);
    expect(clock.wall().toISOString()).toBe('2026-01-01T00:00:00.200Z');
    expect(clock.timers()).toBe(0);
  });

  it('refuses a duration it cannot read', () => {
    expect(() => createFakeClock().advance('soon')).toThrow(/not a duration/);
  });
});

function loopOn(clock: ReturnType<typeof createFakeClock>, reconcile: (key: string) => Result | Promise<Result>) {
  const queue = createWorkQueue({ clock, name: 'test' });
  const log = createLogger({ format: 'json', level: 'silent' });
  const stop = new AbortController();
  const done = runReconcileLoop({
    queue,
    reconcile: (request) => reconcile(request.name),
    context: () => ({}),
    stop: stop.signal,
    clock,
    log,
    metrics: createMetrics({ processMetrics: false }).controllers.forController('test', 1),
    workers: 1,
  });
  return {
    queue,
    async stop() {
      stop.abort();
      queue.shutDown();
      await done;
    },
  };
}

describe('runUntilIdle over a work queue on the fake clock', () => {
  it('reaches a requeue.after only when the horizon covers it, without waiting in real time', async () => {
    const clock = createFakeClock();
    const seen: number[] = [];
    const loop = loopOn(clock, () => {
      seen.push(clock.now());
      return requeue.after('5m');
    });
    loop.queue.add('web');
    await runUntilIdle(clock);
    expect(seen).toEqual([0]);
    const began = performance.now();
    await runUntilIdle(clock, { horizon: '5m' });
    expect(seen).toEqual([0, 300_000]);
    await runUntilIdle(clock, { horizon: '12m' });
    expect(seen).toEqual([0, 300_000, 600_000, 900_000]);
    expect(performance.now() - began).toBeLessThan(2_000);
    await loop.stop();
  });

  it('retries a failing key on the rate limiter backoff of fake time: 5 ms, 10 ms, 20 ms …', async () => {
    const clock = createFakeClock();
    const seen: number[] = [];
    const loop = loopOn(clock, () => {
      seen.push(clock.now());
      if (seen.length < 5) throw new Error('not yet');
    });
    loop.queue.add('web');
    await runUntilIdle(clock);
    expect(seen).toEqual([0, 5, 15, 35, 75]);
    await loop.stop();
  });

  it('waits for a reconcile in flight before it returns', async () => {
    const clock = createFakeClock();
    let finished = false;
    const loop = loopOn(clock, async () => {
      for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
      finished = true;
    });
    loop.queue.add('web');
    await runUntilIdle(clock);
    expect(finished).toBe(true);
    await loop.stop();
  });

  it('fails, naming what is busy, when the system never settles', async () => {
    const clock = createFakeClock();
    const loop = loopOn(clock, () => new Promise(() => {}));
    loop.queue.add('web');
    await expect(runUntilIdle(clock, { timeoutMs: 200 })).rejects.toThrow(/not idle after 200 ms of real time \(busy: work queue test\)/);
    loop.queue.shutDown();
  });
});

describe('timers of the runtime on the fake clock', () => {
  it('reconcileAllEvery ticks and sleeps advance with the clock, not with real time', async () => {
    const clock = createFakeClock();
    const stop = new AbortController();
    const ticks: number[] = [];
    const reading = (async () => {
      for await (const tick of every(60_000, stop.signal, clock)) ticks.push(tick);
    })();
    let slept = false;
    void sleepOn(clock, 90_000).then(() => (slept = true));
    await runUntilIdle(clock, { horizon: '2m' });
    expect(ticks).toEqual([1, 2]);
    expect(slept).toBe(true);
    stop.abort();
    await reading;
  });
});

describe('the control plane tier’s clock: real time that knows what is busy', () => {
  it('runUntilIdle waits for a slow reconcile and, on real time, for a requeue within the horizon', async () => {
    const clock = createObservedClock();
    const seen: number[] = [];
    const began = performance.now();
    const queue = createWorkQueue({ clock, name: 'real' });
    const stop = new AbortController();
    const done = runReconcileLoop({
      queue,
      reconcile: async () => {
        seen.push(Math.round(performance.now() - began));
        await new Promise((resolve) => setTimeout(resolve, 100));
        return seen.length < 2 ? requeue.after(300) : undefined;
      },
      context: () => ({}),
      stop: stop.signal,
      clock,
      log: createLogger({ format: 'json', level: 'silent' }),
      metrics: createMetrics({ processMetrics: false }).controllers.forController('real', 1),
      workers: 1,
    });
    queue.add('web');
    await clock.runUntilIdle({ horizon: 1_000 });
    // Both reconciles ran: the second 300 ms of real time after the first ended.
    expect(seen).toHaveLength(2);
    expect(seen[1]! - seen[0]!).toBeGreaterThanOrEqual(390);
    stop.abort();
    queue.shutDown();
    await done;
  });
});
