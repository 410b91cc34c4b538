/**
 * The W3C `traceparent` header of the API call in flight, when a tracer asked for one: the
 * transport sends it with each try, so that an API server that traces its requests makes
 * its spans children of the call's span. Set by whoever records calls (see
 * observe/reconcile-records); nothing is set, and no header sent, otherwise.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** The header's value while its call runs; `undefined` once the call ended. */
interface CallTrace {
  traceparent: string | undefined;
}

const current = new AsyncLocalStorage<CallTrace>();

/**
 * Runs `send` (one API call) with `traceparent` sent on its requests. What `send` starts and
 * outlives it (a watch it opened) sends none once the call ended.
 */
export async function withTraceparent<R>(traceparent: string, send: () => Promise<R>): Promise<R> {
  const trace: CallTrace = { traceparent };
  try {
    return await current.run(trace, send);
  } finally {
    trace.traceparent = undefined;
  }
}

/** The `traceparent` of the call in flight in this async context, if any. */
export function currentTraceparent(): string | undefined {
  return current.getStore()?.traceparent;
}
