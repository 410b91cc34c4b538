import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/** One JSON log line of an operator, as the runtime's logger writes it. */
export type LogLine = Record<string, unknown> & { msg?: string; level?: string };

/** The lines a process wrote to its log file so far. */
export interface LogLines {
  /** Every line, as written. */
  readonly raw: string[];
  /** The lines that are JSON objects, parsed: what a logger wrote, without Node's warnings or stack traces. */
  readonly parsed: LogLine[];
  /** Takes in the complete lines appended since the last call. */
  update(): void;
  /** Takes in the rest, a last line without a newline included: once the writer is gone. */
  finish(): void;
}

const NEWLINE = 0x0a;

/**
 * Follows a log file that one process appends to. A line is only taken once its newline
 * is there, so a line being written is never parsed in halves.
 */
export function followLog(file: string): LogLines {
  const raw: string[] = [];
  const parsed: LogLine[] = [];
  let offset = 0;

  const take = (completeOnly: boolean): void => {
    const bytes = readFrom(file, offset);
    const end = completeOnly ? bytes.lastIndexOf(NEWLINE) + 1 : bytes.length;
    if (end === 0) return;
    offset += end;
    const lines = bytes.subarray(0, end).toString('utf8').split('\n');
    if (lines.at(-1) === '') lines.pop();
    for (const line of lines) {
      raw.push(line);
      const object = parseJsonObject(line);
      if (object) parsed.push(object);
    }
  };

  return { raw, parsed, update: () => take(true), finish: () => take(false) };
}

function readFrom(file: string, offset: number): Buffer {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return Buffer.alloc(0);
  }
  try {
    const buffer = Buffer.alloc(Math.max(0, fstatSync(fd).size - offset));
    const count = readSync(fd, buffer, 0, buffer.length, offset);
    return buffer.subarray(0, count);
  } finally {
    closeSync(fd);
  }
}

/** A line that is a JSON object, parsed; anything else is not a log line. */
function parseJsonObject(line: string): LogLine | undefined {
  if (!line.startsWith('{')) return undefined;
  try {
    const value = JSON.parse(line) as unknown;
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as LogLine) : undefined;
  } catch {
    return undefined;
  }
}
