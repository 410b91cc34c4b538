import { describe, expect, it } from 'vitest';
import { consistently, eventually } from '../../src/testing/index.js';

describe('consistently', () => {
  it('resolves when the probe holds on every try for the whole duration', async () => {
    let tries = 0;
    const started = Date.now();
    await consistently(() => {
      tries++;
      expect(tries).toBeGreaterThan(0);
    }, { durationMs: 300, intervalMs: 20 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(tries).toBeGreaterThan(5);
  });

  it('fails at the first try that does not hold, with the failure and when it came, without waiting out the duration', async () => {
    let jobs = 0;
    setTimeout(() => (jobs = 2), 100);
    const started = Date.now();
    const failure = await consistently(() => expect(jobs).toBe(0), { durationMs: 10_000, intervalMs: 10 }).catch((e: Error) => e);
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toMatch(/^consistently: failed after \d+ ms of 10000: expected 2 to be \+?0/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('treats a probe that returns false as not holding', async () => {
    await expect(consistently(() => false, { durationMs: 1_000 })).rejects.toThrow(/^consistently: failed after \d+ ms of 1000: the probe returned false$/);
  });
});

describe('eventually', () => {
  it('returns the value of the first try that holds', async () => {
    let n = 0;
    expect(await eventually(() => (++n >= 3 ? `done at ${n}` : false), { intervalMs: 5 })).toBe('done at 3');
  });

  it('fails with the last failure once the time is up', async () => {
    await expect(eventually(() => expect(1).toBe(2), { timeoutMs: 50, intervalMs: 10 })).rejects.toThrow(/^eventually: still failing after 50 ms: expected 1 to be 2/);
  });
});
