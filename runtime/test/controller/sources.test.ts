import { afterEach, describe, expect, it, vi } from 'vitest';
import { channel, consume, every, periodMs, requestOfItem } from '../../src/controller/sources.js';
import { createLogger } from '../../src/log/index.js';

/** A logger whose lines the test reads. */
function capturingLogger() {
  const lines: Array<Record<string, unknown>> = [];
  const log = createLogger({ format: 'json', destination: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) } });
  return { log, lines };
}

afterEach(() => vi.useRealTimers());

describe('channel', () => {
  it('hands items sent before and after the read over in order, then ends once closed', async () => {
    const ch = channel<{ name: string }>();
    ch.send({ name: 'a' });
    const iterator = ch[Symbol.asyncIterator]();
    expect(await iterator.next()).toEqual({ done: false, value: { name: 'a' } });
    const pending = iterator.next();
    ch.send({ name: 'b' });
    expect(await pending).toEqual({ done: false, value: { name: 'b' } });
    ch.send({ name: 'c' });
    ch.close();
    ch.send({ name: 'dropped' });
    expect(await iterator.next()).toEqual({ done: false, value: { name: 'c' } });
    expect((await iterator.next()).done).toBe(true);
  });

  it('ends a pending read when its reader returns', async () => {
    const iterator = channel()[Symbol.asyncIterator]();
    const pending = iterator.next();
    await iterator.return!();
    expect((await pending).done).toBe(true);
  });
});

describe('requestOfItem', () => {
  it('takes requests as they are and objects by their namespace and name', () => {
    expect(requestOfItem({ namespace: 'ns', name: 'a' })).toEqual({ namespace: 'ns', name: 'a' });
    expect(requestOfItem({ name: 'node-1' })).toEqual({ name: 'node-1' });
    expect(requestOfItem({ metadata: { name: 'w', namespace: 'ns' } })).toEqual({ namespace: 'ns', name: 'w' });
    expect(requestOfItem({ metadata: { name: 'cluster-wide' } })).toEqual({ name: 'cluster-wide' });
    expect(requestOfItem({ metadata: { generateName: 'x-' } })).toBeUndefined();
    expect(requestOfItem({ name: '' })).toBeUndefined();
  });
});

describe('consume', () => {
  it('emits every item until the source ends', async () => {
    const { log, lines } = capturingLogger();
    const seen: number[] = [];
    async function* three() {
      yield 1;
      yield 2;
      yield 3;
    }
    await consume(three(), (n) => seen.push(n), new AbortController().signal, log, 'three');
    expect(seen).toEqual([1, 2, 3]);
    expect(lines.some((l) => l.msg === 'Source ended' && l.source === 'three')).toBe(true);
  });

  it('logs a failing source with its error and resolves instead of throwing', async () => {
    const { log, lines } = capturingLogger();
    const seen: number[] = [];
    async function* broken() {
      yield 1;
      throw new Error('vault unreachable');
    }
    await consume(broken(), (n) => seen.push(n), new AbortController().signal, log, 'vault');
    expect(seen).toEqual([1]);
    const failed = lines.find((l) => l.msg === 'Source failed: it enqueues nothing more');
    expect(failed?.source).toBe('vault');
    expect(JSON.stringify(failed?.err)).toContain('vault unreachable');
  });

  it('stops at once when its signal aborts, even while the source waits, and tells the source to return', async () => {
    const { log } = capturingLogger();
    const ch = channel<{ name: string }>();
    const iterator = ch[Symbol.asyncIterator]();
    const stopped = vi.fn();
    const source = { [Symbol.asyncIterator]: () => ({ next: () => iterator.next(), return: () => (stopped(), iterator.return!()) }) };
    const stop = new AbortController();
    const seen: string[] = [];
    const done = consume(source, (item) => seen.push(item.name), stop.signal, log, 'ch');
    ch.send({ name: 'a' });
    await vi.waitFor(() => expect(seen).toEqual(['a']));
    stop.abort();
    await done;
    ch.send({ name: 'after stop' });
    expect(seen).toEqual(['a']);
    expect(stopped).toHaveBeenCalledOnce();
  });
});

describe('every', () => {
  it('ticks once per period, the first after one period, and ends when its signal aborts', async () => {
    vi.useFakeTimers();
    const stop = new AbortController();
    const ticks: number[] = [];
    const reading = (async () => {
      for await (const tick of every(600_000, stop.signal)) ticks.push(tick);
    })();
    await vi.advanceTimersByTimeAsync(599_999);
    expect(ticks).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(ticks).toEqual([1]);
    await vi.advanceTimersByTimeAsync(1_200_000);
    expect(ticks).toEqual([1, 2, 3]);
    stop.abort();
    await reading;
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('periodMs', () => {
  it('reads Go durations and milliseconds, and refuses what is not a positive duration', () => {
    expect(periodMs('10m', 'x')).toBe(600_000);
    expect(periodMs('1h30m', 'x')).toBe(5_400_000);
    expect(periodMs(1500, 'x')).toBe(1500);
    expect(() => periodMs('10 minutes', 'controller: .reconcileAllEvery()')).toThrow(
      `controller: .reconcileAllEvery(): "10 minutes" is not a positive duration such as '10m', '1h' or 600000`,
    );
    expect(() => periodMs(0, 'x')).toThrow(/not a positive duration/);
    expect(() => periodMs('0', 'x')).toThrow(/not a positive duration/);
  });
});
