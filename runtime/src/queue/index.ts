/**
 * The work queue controllers run on: per-key dedup, a key never processed by two workers at
 * once, delayed adds that keep the earliest time, per-item exponential backoff (5 ms →
 * 1000 s, as controller-runtime's), and a low priority for initial-list events.
 *
 * Public surface:
 * - `createWorkQueue({ rateLimiter?, metrics? })` → {@link WorkQueue}: `add(key)`,
 *   `add(key, 'low')` for work nobody waits on, `addAfter(key, ms)`, `addRateLimited(key)`, `forget(key)`, `get()`, `done(key)`.
 * - `exponentialBackoff({ baseMs?, maxMs? })` → {@link RateLimiter}.
 *
 * Imported as `@opgen/runtime/queue`; `controller(mgr)` builds its own, so use this only
 * for a loop of your own.
 *
 * @example
 * import { createWorkQueue, exponentialBackoff } from '@opgen/runtime/queue';
 *
 * const queue = createWorkQueue({ rateLimiter: exponentialBackoff({ baseMs: 100 }) });
 * queue.add('shop/web');
 * const key = await queue.get(); // 'shop/web'
 * queue.done(key);
 *
 * @module
 */
export { createWorkQueue, type WorkQueue, type WorkQueueOptions, type WorkQueueMetrics, type InFlight, type Priority } from './work-queue.js';
export { exponentialBackoff, type RateLimiter, type ExponentialBackoffOptions } from './rate-limiter.js';
