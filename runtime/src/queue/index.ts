export { createWorkQueue, type WorkQueue, type WorkQueueOptions, type WorkQueueMetrics, type InFlight, type Priority } from './work-queue.js';
export { exponentialBackoff, type RateLimiter, type ExponentialBackoffOptions } from './rate-limiter.js';
