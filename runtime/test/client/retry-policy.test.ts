import { describe, expect, it } from 'vitest';
import { MAX_TRIES, parseRetryAfter, retryDelayMs } from '../../src/rest/retry-policy.js';
import { createTokenBucket, tokenBucketFor } from '../../src/rest/token-bucket.js';

const noJitter = () => 0;
const status = (code: number, retryAfterSeconds?: number) => ({ status: code, retryAfterSeconds });
const network = (code: string, mayHaveBeenSent = true) => ({ error: Object.assign(new Error(code), { code }), mayHaveBeenSent });

describe('what the client retries (client-go semantics)', () => {
  it('retries a 429 of any method after its Retry-After', () => {
    for (const method of ['GET', 'POST', 'PATCH']) expect(retryDelayMs(method, status(429, 7), 1, noJitter)).toBe(7_000);
  });

  it('retries a 5xx with Retry-After for every method, without it only idempotent methods', () => {
    expect(retryDelayMs('POST', status(503, 2), 1, noJitter)).toBe(2_000);
    expect(retryDelayMs('POST', status(500), 1, noJitter)).toBeUndefined();
    expect(retryDelayMs('PATCH', status(503), 1, noJitter)).toBeUndefined();
    expect(retryDelayMs('GET', status(503), 1, noJitter)).toBe(200);
    expect(retryDelayMs('PUT', status(504), 3, noJitter)).toBe(800);
  });

  it('never retries other client errors', () => {
    for (const code of [400, 403, 404, 409, 410, 422]) expect(retryDelayMs('GET', status(code, 1), 1, noJitter)).toBeUndefined();
  });

  it('retries broken connections of idempotent calls, and of any call that provably never left', () => {
    expect(retryDelayMs('GET', network('ECONNRESET'), 1, noJitter)).toBe(200);
    expect(retryDelayMs('POST', network('ECONNRESET'), 1, noJitter)).toBeUndefined();
    expect(retryDelayMs('POST', network('ECONNREFUSED', false), 1, noJitter)).toBe(200);
    expect(retryDelayMs('GET', network('ERR_SOMETHING_ELSE'), 1, noJitter)).toBeUndefined();
  });

  it('stops after 10 tries, backs off to at most 5 s, and jitters by up to 20 %', () => {
    expect(retryDelayMs('GET', status(429), MAX_TRIES - 1, noJitter)).toBe(5_000);
    expect(retryDelayMs('GET', status(429), MAX_TRIES, noJitter)).toBeUndefined();
    expect(retryDelayMs('GET', status(429, 1), 1, () => 0.999)).toBeCloseTo(1_199.8);
  });

  it('reads Retry-After in seconds', () => {
    expect(parseRetryAfter('7')).toBe(7);
    expect(parseRetryAfter(['3'])).toBe(3);
    expect(parseRetryAfter(undefined)).toBeUndefined();
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:00 GMT')).toBeUndefined();
  });
});

describe('client-side token bucket', () => {
  it('lets a burst through at once, then one call per 1/qps seconds of the clock', async () => {
    let now = 0;
    const bucket = createTokenBucket(10, 2, () => now);
    expect(await bucket.take()).toBe(0);
    expect(await bucket.take()).toBe(0);
    let third = false;
    const pending = bucket.take().then((waitedMs) => ((third = true), waitedMs));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(third).toBe(false);
    now = 100;
    // The wait it reports is what rest_client_rate_limiter_duration_seconds observes.
    expect(await pending).toBe(100);
    expect(third).toBe(true);
  });

  it('refuses nonsense settings', () => {
    expect(() => createTokenBucket(0, 1)).toThrow('qps must be > 0');
    expect(() => tokenBucketFor(undefined, 5)).toThrow('burst needs qps');
    expect(tokenBucketFor(undefined, undefined)).toBeUndefined();
  });
});
