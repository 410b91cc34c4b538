import { parseDuration } from '../helpers/duration.js';
import type { Logger } from '../log/index.js';
import type { DeepReadonly, KubeObject } from '../object.js';
import type { Request } from './request.js';
import { systemClock, type Clock } from '../time/clock.js';

/**
 * What an external event source yields: a {@link Request}, or an object (its own
 * namespace and name are reconciled). kube-rs's `reconcile_on`, controller-runtime's
 * `source.Channel`.
 */
export type SourceItem = Request | DeepReadonly<KubeObject>;

/**
 * An external event source for `.watches(source)`: any async iterable of requests or
 * objects, such as an async generator or a {@link channel}.
 *
 * @example
 * async function* expiringCertificates(): AsyncGenerator<Request> {
 *   for (;;) {
 *     for (const cert of await vault.expiringSoon())
 *       yield { namespace: cert.namespace, name: cert.owner };
 *     await setTimeout(60_000);
 *   }
 * }
 * controller(mgr).for(Site).watches(expiringCertificates()).reconcile(renewCertificate);
 */
export type EventSource = AsyncIterable<SourceItem>;

/**
 * A push-style {@link EventSource}: `send` from callbacks (a webhook receiver, a message
 * queue consumer), `.watches(ch)` on the controller. Unbounded: what is sent before the
 * controller reads it waits in the channel (the work queue dedups it anyway). Sends after
 * `close()` are dropped.
 */
export interface Channel<T extends SourceItem = Request> extends AsyncIterable<T> {
  /** Hands `item` to the reader; dropped once the channel is closed. */
  send(item: T): void;
  /** Ends the channel: the reader gets what was sent before, then the end. */
  close(): void;
}

/**
 * Creates a {@link Channel}, the counterpart of controller-runtime's `source.Channel`.
 *
 * @example
 * const pushes = channel<Request>();
 * controller(mgr).for(Site).watches(pushes).reconcile(deploySite);
 * gitWebhook.on('push', (repo) => pushes.send({ namespace: 'sites', name: repo }));
 */
export function channel<T extends SourceItem = Request>(): Channel<T> {
  const buffered: T[] = [];
  let waiting: ((result: IteratorResult<T>) => void) | undefined;
  let closed = false;
  const end = (): IteratorResult<T> => ({ done: true, value: undefined });
  return {
    send(item) {
      if (closed) return;
      if (waiting) {
        const resolve = waiting;
        waiting = undefined;
        resolve({ done: false, value: item });
      } else buffered.push(item);
    },
    close() {
      closed = true;
      if (waiting && buffered.length === 0) {
        const resolve = waiting;
        waiting = undefined;
        resolve(end());
      }
    },
    [Symbol.asyncIterator]() {
      return {
        next: () => {
          if (buffered.length > 0) return Promise.resolve({ done: false, value: buffered.shift()! });
          if (closed) return Promise.resolve(end());
          return new Promise<IteratorResult<T>>((resolve) => (waiting = resolve));
        },
        return: () => {
          // The reader stopped (its controller stopped): a pending read ends now.
          const resolve = waiting;
          waiting = undefined;
          resolve?.(end());
          return Promise.resolve(end());
        },
      };
    },
  };
}

/** The request an item of a source stands for; undefined for an object without a name. */
export function requestOfItem(item: SourceItem): Request | undefined {
  if ('metadata' in item) {
    const name = item.metadata?.name;
    if (!name) return undefined;
    const namespace = item.metadata?.namespace;
    return namespace ? { namespace, name } : { name };
  }
  const { name, namespace } = item as Request;
  if (typeof name !== 'string' || !name) return undefined;
  return namespace ? { namespace, name } : { name };
}

/**
 * Reads `source` until it ends, fails or `signal` aborts, handing each item to `emit`.
 * A failure is logged, not thrown: one broken source must not stop its controller.
 * On abort the iterator is told to return (a generator's `finally` runs once its
 * pending step settles).
 */
export async function consume<T>(source: AsyncIterable<T>, emit: (item: T) => void, signal: AbortSignal, log: Logger, what: string): Promise<void> {
  if (signal.aborted) return;
  const iterator = source[Symbol.asyncIterator]();
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<IteratorResult<T>>((resolve) => {
    onAbort = () => resolve({ done: true, value: undefined });
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    for (;;) {
      const step = await Promise.race([iterator.next(), aborted]);
      if (signal.aborted) break;
      if (step.done) {
        log.info({ source: what }, 'Source ended');
        return;
      }
      emit(step.value);
    }
  } catch (error) {
    log.error({ err: error, source: what }, 'Source failed: it enqueues nothing more');
    return;
  } finally {
    signal.removeEventListener('abort', onAbort!);
  }
  // Stopped by the controller: not awaited, as a generator blocked in its own await
  // returns only after that settles.
  void Promise.resolve(iterator.return?.()).catch((error: unknown) => log.error({ err: error, source: what }, 'Source failed while stopping'));
}

/**
 * An async iterable that yields every `periodMs` until `signal` aborts: the trigger of
 * `.reconcileAllEvery()`. The first tick comes one period after the start (the initial
 * list already enqueues everything).
 */
export function every(periodMs: number, signal: AbortSignal, clock: Clock = systemClock): AsyncIterable<number> {
  return {
    async *[Symbol.asyncIterator]() {
      for (let tick = 1; !signal.aborted; tick++) {
        const fired = await new Promise<boolean>((resolve) => {
          const timer = clock.setTimer(() => {
            signal.removeEventListener('abort', stop);
            resolve(true);
          }, periodMs);
          const stop = (): void => {
            timer.cancel();
            resolve(false);
          };
          signal.addEventListener('abort', stop, { once: true });
        });
        if (!fired) return;
        yield tick;
      }
    },
  };
}

/** Milliseconds of a period given as a Go duration string or milliseconds; throws on anything else. */
export function periodMs(period: string | number, what: string): number {
  const ms = typeof period === 'number' ? period : parseDuration(period);
  if (ms === undefined || !Number.isFinite(ms) || ms <= 0) {
    throw new Error(`${what}: ${JSON.stringify(period)} is not a positive duration such as '10m', '1h' or 600000`);
  }
  return ms;
}
