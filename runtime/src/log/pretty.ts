import type { DestinationStream } from 'pino';

const LEVEL_COLOURS: Record<string, string> = {
  trace: '\x1b[90m',
  debug: '\x1b[36m',
  info: '\x1b[32m',
  warn: '\x1b[33m',
  error: '\x1b[31m',
  fatal: '\x1b[35m',
};
const RESET = '\x1b[0m';
const DIM = '\x1b[2m';

/** Where pretty lines go: a stream with `write`, e.g. `process.stderr`. */
export interface TextSink {
  /** Writes one or more whole lines. */
  write(text: string): unknown;
  /** Colours are used on a TTY unless told otherwise. */
  isTTY?: boolean;
}

/**
 * A pino destination that turns each JSON line into one readable line, the way
 * controller-runtime's development logger does:
 * `time  LEVEL  logger  message  {other fields}` plus the error stack, if any.
 * Written here rather than taken from pino-pretty to keep that package and its
 * dependencies out of every operator image; local runs need no more than this.
 */
export function prettyDestination(sink: TextSink, colour = sink.isTTY === true): DestinationStream {
  const paint = (code: string, text: string): string => (colour ? `${code}${text}${RESET}` : text);
  return {
    write(line: string) {
      let entry: Record<string, unknown>;
      try {
        entry = JSON.parse(line) as Record<string, unknown>;
      } catch {
        sink.write(line);
        return;
      }
      const { time, level, logger, msg, err, pid: _pid, ...rest } = entry;
      const levelName = String(level ?? 'info');
      const parts = [
        paint(DIM, String(time ?? '')),
        paint(LEVEL_COLOURS[levelName] ?? '', levelName.toUpperCase().padEnd(5)),
      ];
      if (logger !== undefined) parts.push(paint(DIM, String(logger)));
      parts.push(String(msg ?? ''));
      if (Object.keys(rest).length > 0) parts.push(JSON.stringify(rest));
      let text = parts.join('\t');
      if (err && typeof err === 'object') {
        const { stack, message } = err as { stack?: string; message?: string };
        text += `\n${stack ?? message ?? JSON.stringify(err)}`;
      }
      sink.write(`${text}\n`);
    },
  };
}
