import { pino, stdTimeFunctions, type DestinationStream, type Logger, type LevelWithSilent } from 'pino';
import { currentLogContext } from './context.js';
import { prettyDestination } from './pretty.js';

export type { Logger } from 'pino';

/** `json` (one object a line, for log collectors) or `pretty` (for people, local runs). */
export type LogFormat = 'json' | 'pretty';

/** Options of {@link createLogger}. */
export interface LoggerOptions {
  /** Default: `LOG_FORMAT` from the environment, else `json`. */
  format?: LogFormat;
  /** Default: `LOG_LEVEL` from the environment, else `info`. */
  level?: LevelWithSilent;
  /** Where lines go; default standard error, like controller-runtime's zap logger. */
  destination?: DestinationStream & { isTTY?: boolean };
}

const LEVELS: readonly string[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** Whether `value` is a log level pino knows. */
export function isLogLevel(value: string): value is LevelWithSilent {
  return LEVELS.includes(value);
}

/**
 * The root logger of an operator: pino with string levels and ISO times. Lines written
 * inside a reconcile carry its reconcile ID, whichever logger writes them.
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  const envFormat = process.env.LOG_FORMAT;
  const envLevel = process.env.LOG_LEVEL;
  const format = options.format ?? (envFormat === 'pretty' ? 'pretty' : 'json');
  const level = options.level ?? (envLevel && isLogLevel(envLevel) ? envLevel : 'info');
  const sink = options.destination ?? process.stderr;
  return pino(
    {
      level,
      base: { pid: process.pid },
      timestamp: stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      // pino assigns each call's fields onto the object the mixin returns: hand it a copy, or
      // one call's fields would stick to the shared context and every later line.
      mixin: () => ({ ...currentLogContext() }),
    },
    format === 'pretty' ? prettyDestination(sink) : sink,
  );
}
