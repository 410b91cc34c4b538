/**
 * The logging the cluster-facing parts need: a pino logger satisfies it, so does anything
 * with the same four methods. Kept minimal so this folder depends on no logging library.
 */
export interface LoggerLike {
  /** Detail for whoever debugs the client: every retry, every relist. */
  debug(fields: object, message: string): void;
  /** What an operator's log should show. */
  info(fields: object, message: string): void;
  /** Something went wrong and was handled (a retry, a restarted watch). */
  warn(fields: object, message: string): void;
  /** Something went wrong and was not. */
  error(fields: object, message: string): void;
}

/** Drops everything: the default when the caller gives no logger. */
export const silentLogger: LoggerLike = {
  debug() {},
  info() {},
  warn() {},
  error() {},
};
