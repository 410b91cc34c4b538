/**
 * The logging the cluster-facing parts need: a pino logger satisfies it, so does anything
 * with the same four methods. Kept minimal so this folder depends on no logging library.
 */
export interface LoggerLike {
  debug(fields: object, message: string): void;
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

/** Drops everything: the default when the caller gives no logger. */
export const silentLogger: LoggerLike = {
  debug() {},
  info() {},
  warn() {},
  error() {},
};
