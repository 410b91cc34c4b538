/**
 * Structured logs (pino): JSON by default, `LOG_FORMAT=text` for people, and a context
 * (controller, object, reconcile ID) that follows a reconcile through its awaits.
 *
 * Public surface:
 * - `createLogger({ format?, level?, destination? })` → {@link Logger}.
 * - `withLogContext(fields, fn)`: runs `fn` with `fields` on every line logged inside it.
 *
 * Imported as `@opgen/runtime/log`; a manager's own logger is `mgr.log`, and a reconcile's
 * is `ctx.log`.
 *
 * @example
 * import { createLogger } from '@opgen/runtime/log';
 *
 * const log = createLogger({ format: 'text', level: 'debug' });
 * log.info({ store: 'shop/web' }, 'Restocked');
 *
 * @module
 */
export { createLogger, isLogLevel, type Logger, type LoggerOptions, type LogFormat } from './logger.js';
export { withLogContext, currentLogContext, type LogContext } from './context.js';
export { prettyDestination, type TextSink } from './pretty.js';
