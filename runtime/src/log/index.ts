export { createLogger, isLogLevel, type Logger, type LoggerOptions, type LogFormat } from './logger.js';
export { withLogContext, currentLogContext, type LogContext } from './context.js';
export { prettyDestination, type TextSink } from './pretty.js';
