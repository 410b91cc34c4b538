import { setTimeout as sleep } from 'node:timers/promises';

/** Options of {@link eventually}. */
export interface EventuallyOptions {
  /** How long to keep trying; default 10 000 ms. */
  timeoutMs?: number;
  /** Pause between tries; default 100 ms. */
  intervalMs?: number;
}

/** Options of {@link consistently}. */
export interface ConsistentlyOptions {
  /** How long the probe must keep holding; default 2 000 ms (a watch event takes well under that to arrive). */
  durationMs?: number;
  /** Pause between tries; default 100 ms. */
  intervalMs?: number;
}

/** A check: throws (e.g. a failed `expect`) or returns `false` when it does not hold. */
export type Probe<T> = () => T | Promise<T>;

async function attempt<T>(probe: Probe<T>): Promise<{ ok: true; value: T } | { ok: false; why: string }> {
  try {
    const value = await probe();
    return value === false ? { ok: false, why: 'the probe returned false' } : { ok: true, value };
  } catch (error) {
    return { ok: false, why: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Tries `probe` until it holds and returns its value (Gomega's `Eventually`): for what a
 * controller does some time after a write. Rejects with the last failure after `timeoutMs`.
 *
 * @example
 * const job = await eventually(async () => {
 *   const jobs = await client.list(kinds.Job, { namespace });
 *   expect(jobs).toHaveLength(1);
 *   return jobs[0];
 * });
 */
export async function eventually<T>(probe: Probe<T>, options: EventuallyOptions = {}): Promise<Exclude<T, false>> {
  const { timeoutMs = 10_000, intervalMs = 100 } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const result = await attempt(probe);
    if (result.ok) return result.value as Exclude<T, false>;
    if (Date.now() >= deadline) throw new Error(`eventually: still failing after ${timeoutMs} ms: ${result.why}`);
    await sleep(intervalMs);
  }
}

/**
 * Checks that `probe` holds on every try for `durationMs` (Gomega's `Consistently`): for
 * what a controller must NOT do, e.g. create no second Job while the first runs, or leave a
 * suspended object alone. Rejects at the first failure, saying after how long.
 *
 * @example
 * await client.patch(CronJob, cronJob, { spec: { suspend: true } });
 * await consistently(async () => {
 *   expect(await client.list(kinds.Job, { namespace })).toHaveLength(0);
 * }, { durationMs: 3_000 });
 */
export async function consistently(probe: Probe<unknown>, options: ConsistentlyOptions = {}): Promise<void> {
  const { durationMs = 2_000, intervalMs = 100 } = options;
  const started = Date.now();
  const end = started + durationMs;
  for (;;) {
    const result = await attempt(probe);
    if (!result.ok) throw new Error(`consistently: failed after ${Date.now() - started} ms of ${durationMs}: ${result.why}`);
    if (Date.now() >= end) return;
    await sleep(Math.min(intervalMs, Math.max(0, end - Date.now())));
  }
}
