/** Reports one download's bytes as they arrive. */
export interface Progress {
  /** `bytes` more arrived. */
  advance(bytes: number): void;
  /** Clears the bar; the caller says what became of the download. */
  end(): void;
}

/** Where progress is written: a stream with an optional TTY width (stderr by default). */
export interface ProgressSink {
  /** Writes `text` as it is (lines are redrawn with `\r` on a TTY). */
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

const LINE_EVERY_MS = 5_000;
const BAR_EVERY_MS = 200;

/**
 * A progress reporter for a download of `total` bytes (undefined when the server sent no
 * length): on a terminal a bar redrawn in place, otherwise (CI logs, a test runner's piped
 * stderr) one line every five seconds so a slow download never looks hung.
 *
 * @example
 * const progress = progressReporter('kubectl', Number(response.headers.get('content-length')));
 * for await (const chunk of body) progress.advance(chunk.length);
 * progress.end();
 */
export function progressReporter(label: string, total: number | undefined, sink: ProgressSink = process.stderr, clock: () => number = Date.now): Progress {
  const started = clock();
  let done = 0;
  let last = started;
  const tty = sink.isTTY === true;
  const describe = () => {
    const seconds = Math.max((clock() - started) / 1000, 0.001);
    const of = total ? ` of ${formatBytes(total)} (${Math.floor((done / total) * 100)}%)` : '';
    return `${formatBytes(done)}${of}, ${formatBytes(done / seconds)}/s`;
  };
  return {
    advance(bytes) {
      done += bytes;
      const now = clock();
      if (now - last < (tty ? BAR_EVERY_MS : LINE_EVERY_MS)) return;
      last = now;
      if (!tty) {
        sink.write(`download: ${label}: ${describe()}\n`);
        return;
      }
      const width = 24;
      const filled = total ? Math.min(width, Math.round((done / total) * width)) : 0;
      const bar = total ? `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ` : '';
      const line = `download: ${label} ${bar}${describe()}`;
      sink.write(`\r${line.slice(0, (sink.columns ?? 120) - 1)}\x1b[K`);
    },
    end() {
      if (tty && last !== started) sink.write('\r\x1b[K');
    },
  };
}

/** `12.3 MB`: decimal units, as release pages state sizes. */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${Math.round(bytes)} B`;
  if (bytes < 1e6) return `${(bytes / 1e3).toFixed(1)} kB`;
  if (bytes < 1e9) return `${(bytes / 1e6).toFixed(1)} MB`;
  return `${(bytes / 1e9).toFixed(2)} GB`;
}
