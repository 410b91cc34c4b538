import { createDelayHeap, type Delayed } from './heap.js';
import { exponentialBackoff, type RateLimiter } from './rate-limiter.js';
import { systemClock, type Clock, type ClockTimer } from '../time/clock.js';

/**
 * Callbacks through which a queue reports what controller-runtime's `workqueue_*` metrics
 * measure. Durations are in seconds.
 */
export interface WorkQueueMetrics {
  /** A key became pending (`workqueue_adds_total`); duplicates of a pending key are not counted. */
  added(): void;
  /** The number of pending keys changed (`workqueue_depth`). */
  depth(pending: number): void;
  /** A key was handed to a worker after waiting this long (`workqueue_queue_duration_seconds`). */
  handedOut(waitedSeconds: number): void;
  /** A worker finished a key after this long (`workqueue_work_duration_seconds`). */
  finished(workedSeconds: number): void;
  /** A delayed add was asked for (`workqueue_retries_total`). */
  retried(): void;
}

/** What is being processed right now, read when metrics are scraped. */
export interface InFlight {
  /** Seconds of work done by keys still being processed (`workqueue_unfinished_work_seconds`). */
  unfinishedWorkSeconds: number;
  /** Age of the oldest key being processed (`workqueue_longest_running_processor_seconds`). */
  longestRunningProcessorSeconds: number;
}

/** Options of {@link createWorkQueue}. */
export interface WorkQueueOptions {
  /** Backoff of `addRateLimited`; default {@link exponentialBackoff} (5 ms → 1000 s). */
  rateLimiter?: RateLimiter;
  metrics?: WorkQueueMetrics;
  /** Time of the delayed adds and the metrics; default real time. A memory cluster's manager passes its fake clock. */
  clock?: Clock;
  /** The queue's name when it tells a test's clock it has work (see {@link Clock.track}). */
  name?: string;
}

/**
 * How urgent an add is. `low` is for work nobody is waiting on: objects of an informer's
 * initial list and unchanged resyncs. A restarted operator with 10,000 objects then serves
 * a user's edit before its backlog, as controller-runtime's priority queue does.
 */
export type Priority = 'normal' | 'low';

/**
 * A controller's work queue of object keys, with client-go's guarantees:
 * - a key is pending at most once, however often it is added;
 * - a key handed to a worker is not handed out again until `done`; adds that arrive in the
 *   meantime cause exactly one more hand-out after `done`;
 * - `addAfter` keeps the earliest requested time per key;
 * - `low` keys are handed out only when no `normal` key is pending, each priority in FIFO
 *   order; a pending `low` key added again as `normal` moves up.
 */
export interface WorkQueue {
  /** Makes `key` pending unless it already is (at this priority or higher). Ignored after shutdown. */
  add(key: string, priority?: Priority): void;
  /** Adds `key` after `delayMs`; a key already waiting keeps the earlier of the two times. */
  addAfter(key: string, delayMs: number): void;
  /** Adds `key` after its rate limiter's delay: exponential per-key backoff by default. */
  addRateLimited(key: string): void;
  /** Resets `key`'s backoff; call it when the key was processed successfully. */
  forget(key: string): void;
  /** Backoff retries counted for `key` since it was last forgotten. */
  numRequeues(key: string): number;
  /**
   * The next pending key, waiting for one if needed; `undefined` once the queue shuts down.
   * The caller must call `done(key)` when it has finished with the key.
   */
  get(): Promise<string | undefined>;
  /** Marks `key` as processed; re-queues it if it was added while being processed. */
  done(key: string): void;
  /** Number of pending keys (not counting delayed ones or ones being processed). */
  len(): number;
  /** Stops accepting adds and handing out keys; keys being processed may still call `done`. */
  shutDown(): void;
  /** Like `shutDown`, then resolves once every key being processed is `done`. */
  shutDownWithDrain(): Promise<void>;
  /** Whether `shutDown` was called: `get` then resolves undefined once the queue is empty. */
  isShuttingDown(): boolean;
  /** Work in progress, for the unfinished-work and longest-running gauges. */
  inFlight(): InFlight;
}

/** A FIFO of keys; `head` avoids O(n) shifts. */
function createFifo(): { push(key: string): void; shift(): string | undefined } {
  let items: string[] = [];
  let head = 0;
  return {
    push: (key) => void items.push(key),
    shift() {
      if (head >= items.length) return undefined;
      const key = items[head++];
      if (head > 1024 && head * 2 > items.length) {
        items = items.slice(head);
        head = 0;
      }
      return key;
    },
  };
}

const noMetrics: WorkQueueMetrics = {
  added() {},
  depth() {},
  handedOut() {},
  finished() {},
  retried() {},
};

/** Creates an empty {@link WorkQueue}. */
export function createWorkQueue(options: WorkQueueOptions = {}): WorkQueue {
  const limiter = options.rateLimiter ?? exponentialBackoff();
  const metrics = options.metrics ?? noMetrics;
  const clock = options.clock ?? systemClock;
  const now = (): number => clock.now();

  // Pending keys in FIFO order per priority. A key that moved up leaves a stale entry behind
  // in `low`, skipped when reached: a key's priority is what `dirty` says.
  const lanes = { normal: createFifo(), low: createFifo() };
  /** Keys that need processing (queued, or added again while being processed), with their priority. */
  const dirty = new Map<string, Priority>();
  /** Dirty keys waiting in a lane, not being processed. */
  let queued = 0;
  /** Keys handed out and not yet done, with the time they were handed out. */
  const processing = new Map<string, number>();
  /** When each dirty key was first added, for the queue-latency histogram. */
  const addedAt = new Map<string, number>();
  const waiters: Array<(key: string | undefined) => void> = [];
  const drains: Array<() => void> = [];
  const delayed = createDelayHeap();
  const delayedByKey = new Map<string, Delayed>();
  let timer: ClockTimer | undefined;
  let timerAt = Infinity;
  let shuttingDown = false;

  const pendingCount = (): number => queued;
  // A test's clock waits while keys are pending or being processed; delayed keys are its timers.
  const untrack = clock.track?.(`work queue ${options.name ?? ''}`.trim(), () => queued > 0 || processing.size > 0) ?? (() => {});

  /** The next key of the highest priority that has one; call only with `queued > 0`. */
  const next = (): string => {
    for (const priority of ['normal', 'low'] as const) {
      const lane = lanes[priority];
      for (let key = lane.shift(); key !== undefined; key = lane.shift()) {
        if (dirty.get(key) === priority && !processing.has(key)) return key;
      }
    }
    throw new Error('work queue: no pending key although one was counted');
  };

  const take = (): string => {
    const key = next();
    queued--;
    const t = now();
    processing.set(key, t);
    dirty.delete(key);
    metrics.depth(dirty.size);
    metrics.handedOut((t - (addedAt.get(key) ?? t)) / 1000);
    addedAt.delete(key);
    return key;
  };

  const dispatch = (): void => {
    while (waiters.length > 0 && pendingCount() > 0) waiters.shift()!(take());
  };

  const add = (key: string, priority: Priority = 'normal'): void => {
    if (shuttingDown) return;
    const pending = dirty.get(key);
    if (pending !== undefined) {
      if (pending === 'low' && priority === 'normal') {
        dirty.set(key, 'normal');
        if (!processing.has(key)) lanes.normal.push(key);
      }
      return;
    }
    metrics.added();
    dirty.set(key, priority);
    addedAt.set(key, now());
    metrics.depth(dirty.size);
    if (processing.has(key)) return;
    lanes[priority].push(key);
    queued++;
    dispatch();
  };

  const fireDue = (): void => {
    timer = undefined;
    timerAt = Infinity;
    const t = now();
    for (let next = delayed.peek(); next && next.readyAt <= t; next = delayed.peek()) {
      delayed.pop();
      delayedByKey.delete(next.key);
      add(next.key);
    }
    arm();
  };

  /** Keeps one timer, set for the earliest delayed key. */
  const arm = (): void => {
    const next = delayed.peek();
    if (!next || shuttingDown) return;
    if (timer && timerAt <= next.readyAt) return;
    timer?.cancel();
    timerAt = next.readyAt;
    timer = clock.setTimer(fireDue, Math.max(0, next.readyAt - now()));
  };

  const addAfter = (key: string, delayMs: number): void => {
    if (shuttingDown) return;
    metrics.retried();
    if (!(delayMs > 0)) {
      add(key);
      return;
    }
    const readyAt = now() + delayMs;
    const waiting = delayedByKey.get(key);
    if (waiting) {
      if (readyAt >= waiting.readyAt) return;
      waiting.readyAt = readyAt;
      delayed.moveUp(waiting);
    } else {
      const item: Delayed = { key, readyAt, index: -1 };
      delayedByKey.set(key, item);
      delayed.push(item);
    }
    arm();
  };

  const shutDown = (): void => {
    if (shuttingDown) return;
    shuttingDown = true;
    untrack();
    timer?.cancel();
    timer = undefined;
    delayed.clear();
    delayedByKey.clear();
    for (const resolve of waiters.splice(0)) resolve(undefined);
  };

  return {
    add,
    addAfter,
    addRateLimited(key) {
      addAfter(key, limiter.when(key));
    },
    forget: (key) => limiter.forget(key),
    numRequeues: (key) => limiter.retries(key),
    get() {
      if (shuttingDown) return Promise.resolve(undefined);
      if (pendingCount() > 0 && waiters.length === 0) return Promise.resolve(take());
      return new Promise((resolve) => {
        waiters.push(resolve);
      });
    },
    done(key) {
      const started = processing.get(key);
      if (started === undefined) return;
      processing.delete(key);
      metrics.finished((now() - started) / 1000);
      const priority = dirty.get(key);
      if (priority !== undefined) {
        lanes[priority].push(key);
        queued++;
        dispatch();
      }
      if (processing.size === 0) for (const resolve of drains.splice(0)) resolve();
    },
    len: pendingCount,
    shutDown,
    shutDownWithDrain() {
      shutDown();
      if (processing.size === 0) return Promise.resolve();
      return new Promise((resolve) => {
        drains.push(resolve);
      });
    },
    isShuttingDown: () => shuttingDown,
    inFlight() {
      const t = now();
      let unfinished = 0;
      let longest = 0;
      for (const started of processing.values()) {
        const age = (t - started) / 1000;
        unfinished += age;
        if (age > longest) longest = age;
      }
      return { unfinishedWorkSeconds: unfinished, longestRunningProcessorSeconds: longest };
    },
  };
}
