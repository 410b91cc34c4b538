import { AsyncLocalStorage } from 'node:async_hooks';

/** Fields every log line written inside a reconcile carries, whichever logger writes it. */
export type LogContext = Readonly<Record<string, string>>;

const storage = new AsyncLocalStorage<LogContext>();

/**
 * Runs `fn` so that every log line it causes, also in async continuations, carries `fields`
 * on top of those of any enclosing context (inside a reconcile: its reconcile ID). The
 * fields end with `fn` and its continuations: they never reach the next reconcile's lines.
 */
export function withLogContext<R>(fields: LogContext, fn: () => R): R {
  return storage.run({ ...storage.getStore(), ...fields }, fn);
}

/** The fields of the innermost {@link withLogContext} around the caller; `{}` outside one. */
export function currentLogContext(): LogContext {
  return storage.getStore() ?? {};
}
