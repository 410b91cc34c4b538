import { describe, expect, it } from 'vitest';
import { createRecoveryWatch } from '../../src/rest/recovery.js';

/** A probe that answers from a script of up/down, one entry per probe, then stays on the last. */
function scripted(answers: boolean[]) {
  let probes = 0;
  return {
    get probes() {
      return probes;
    },
    probe: async () => answers[Math.min(probes++, answers.length - 1)]!,
  };
}

const settled = async (promise: Promise<void>, ms: number) =>
  Promise.race([promise.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms))]);

describe('the recovery watch', () => {
  it('wakes a waiter when the server, seen down, answers again', async () => {
    const server = scripted([false, false, true]);
    const watch = createRecoveryWatch(server.probe, 5);
    expect(await settled(watch.recovered(new AbortController().signal), 1_000)).toBe(true);
    expect(server.probes).toBe(3);
  });

  it('leaves a waiter to its backoff while the server was never seen down', async () => {
    const server = scripted([true]);
    const watch = createRecoveryWatch(server.probe, 5);
    const stop = new AbortController();
    const woken = watch.recovered(stop.signal);
    expect(await settled(woken, 100)).toBe(false);
    stop.abort();
    expect(await settled(woken, 100)).toBe(true);
  });

  it('probes only while someone waits, once for all of them', async () => {
    const server = scripted([false, true]);
    const watch = createRecoveryWatch(server.probe, 5);
    const signal = new AbortController().signal;
    await Promise.all([watch.recovered(signal), watch.recovered(signal), watch.recovered(signal)]);
    expect(server.probes).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.probes).toBe(2);
  });

  it('counts a probe that throws as the server being down', async () => {
    let probes = 0;
    const watch = createRecoveryWatch(async () => {
      if (probes++ === 0) throw new Error('connect ECONNREFUSED');
      return true;
    }, 5);
    expect(await settled(watch.recovered(new AbortController().signal), 1_000)).toBe(true);
  });
});
