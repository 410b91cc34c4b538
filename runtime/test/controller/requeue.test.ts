import { describe, expect, it } from 'vitest';
import { requeue } from '../../src/controller/requeue.js';

describe('requeue', () => {
  it('after takes Go durations and milliseconds', () => {
    expect(requeue.after('5m')).toEqual({ requeueAfter: 300_000 });
    expect(requeue.after('1h30m')).toEqual({ requeueAfter: 5_400_000 });
    expect(requeue.after('250ms')).toEqual({ requeueAfter: 250 });
    expect(requeue.after(60_000)).toEqual({ requeueAfter: 60_000 });
  });

  it('after refuses what is not a duration, naming it', () => {
    expect(() => requeue.after('5 minutes')).toThrow(/"5 minutes" is not a duration/);
    expect(() => requeue.after(-1)).toThrow(/-1 is not a duration/);
  });

  it('now asks for the key\'s backoff', () => {
    expect(requeue.now()).toEqual({ requeue: true });
  });
});
