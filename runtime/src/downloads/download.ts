import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { formatBytes, progressReporter, type ProgressSink } from './progress.js';

/**
 * Why a download failed. `unreachable`: no answer, an HTTP error, or the connection broke on
 * every attempt; another source (a mirror, a Go build) may still serve. `checksum`: the bytes
 * arrived but are not the published ones; nothing is kept and nothing else is tried.
 */
export class DownloadError extends Error {
  constructor(
    message: string,
    readonly url: string,
    readonly reason: 'unreachable' | 'checksum',
  ) {
    super(message);
    this.name = 'DownloadError';
  }
}

/** A digest the downloaded bytes must have. */
export interface Checksum {
  algorithm: 'sha256' | 'sha512';
  /** Lower-case hex. */
  hex: string;
}

/** Options of {@link downloadFile}. */
export interface DownloadOptions {
  checksum: Checksum;
  /** What the progress line calls it; default the URL's last segment. */
  label?: string;
  /** Where progress goes; default stderr. */
  progress?: ProgressSink;
  /** Attempts when the connection breaks or the server answers 5xx; default 3. */
  attempts?: number;
  /** No byte for this long counts as a broken connection; default 60 s. */
  idleTimeoutMs?: number;
}

/** What one download took. */
export interface Downloaded {
  bytes: number;
  seconds: number;
}

const RETRY_PAUSE_MS = 1_000;
// An index or a checksum file is a few kilobytes: a server silent this long is not going to answer.
const FETCH_TEXT_TIMEOUT_MS = 30_000;

/**
 * Downloads `url` to `dest`, verifying its digest while it streams. The bytes go to a
 * temporary name beside `dest` that is renamed only once the digest matches, so an
 * interrupted or corrupted download never looks like a complete one. A connection that
 * breaks is retried from the start; a digest that differs deletes the file and throws.
 *
 * @example
 * await downloadFile(
 *   'https://dl.k8s.io/release/v1.36.3/bin/linux/amd64/kubectl',
 *   '/tmp/kubectl',
 *   { checksum: { algorithm: 'sha256', hex } },
 * );
 */
export async function downloadFile(url: string, dest: string, options: DownloadOptions): Promise<Downloaded> {
  const attempts = options.attempts ?? 3;
  const label = options.label ?? url.slice(url.lastIndexOf('/') + 1);
  const sink = options.progress ?? process.stderr;
  const temp = `${dest}.partial-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const started = Date.now();
  try {
    for (let attempt = 1; ; attempt++) {
      const result = await attemptDownload(url, temp, label, sink, options.checksum.algorithm, options.idleTimeoutMs ?? 60_000);
      if ('hex' in result) {
        if (result.hex !== options.checksum.hex.toLowerCase()) {
          await rm(temp, { force: true });
          throw new DownloadError(
            `checksum mismatch for ${url}: expected ${options.checksum.algorithm} ${options.checksum.hex.toLowerCase()}, got ${result.hex}; the download was deleted`,
            url,
            'checksum',
          );
        }
        await rename(temp, dest);
        const seconds = (Date.now() - started) / 1000;
        sink.write(`download: ${label}: ${formatBytes(result.bytes)} in ${seconds.toFixed(1)} s, ${options.checksum.algorithm} verified\n`);
        return { bytes: result.bytes, seconds };
      }
      await rm(temp, { force: true });
      if (!result.retry || attempt >= attempts) {
        throw new DownloadError(`cannot download ${url}: ${result.problem}${attempt > 1 ? ` (${attempt} attempts)` : ''}`, url, 'unreachable');
      }
      sink.write(`download: ${label}: ${result.problem}; trying again (${attempt + 1} of ${attempts})\n`);
      await new Promise((resolve) => setTimeout(resolve, RETRY_PAUSE_MS * attempt));
    }
  } finally {
    await rm(temp, { force: true });
  }
}

/**
 * Fetches a small text file (an index, a checksum file), retrying like {@link downloadFile}.
 * Throws a DownloadError of reason `unreachable` when it cannot.
 *
 * @example
 * const sha256 = (await fetchText(`${url}.sha256`)).trim();
 */
export async function fetchText(url: string, attempts = 3): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    let problem: string;
    let retry = true;
    try {
      const response = await fetch(url, { redirect: 'follow', signal: AbortSignal.timeout(FETCH_TEXT_TIMEOUT_MS) });
      if (response.ok) return await response.text();
      problem = `HTTP ${response.status} ${response.statusText}`.trim();
      retry = response.status >= 500;
    } catch (error) {
      problem = describeFetchError(error);
    }
    if (!retry || attempt >= attempts) {
      throw new DownloadError(`cannot download ${url}: ${problem}${attempt > 1 ? ` (${attempt} attempts)` : ''}`, url, 'unreachable');
    }
    await new Promise((resolve) => setTimeout(resolve, RETRY_PAUSE_MS * attempt));
  }
}

type Attempt = { hex: string; bytes: number } | { problem: string; retry: boolean };

async function attemptDownload(
  url: string,
  temp: string,
  label: string,
  sink: ProgressSink,
  algorithm: Checksum['algorithm'],
  idleTimeoutMs: number,
): Promise<Attempt> {
  const abort = new AbortController();
  let idle: NodeJS.Timeout | undefined;
  const stillAlive = () => {
    clearTimeout(idle);
    idle = setTimeout(() => abort.abort(new Error(`no data for ${idleTimeoutMs / 1000} s`)), idleTimeoutMs);
  };
  let received = 0;
  let total: number | undefined;
  stillAlive();
  try {
    const response = await fetch(url, { redirect: 'follow', signal: abort.signal });
    if (!response.ok || !response.body) {
      await response.body?.cancel();
      return { problem: `HTTP ${response.status} ${response.statusText}`.trim(), retry: response.status >= 500 };
    }
    const length = Number(response.headers.get('content-length'));
    total = Number.isFinite(length) && length > 0 ? length : undefined;
    const hash = createHash(algorithm);
    const out = createWriteStream(temp, { mode: 0o644 });
    const progress = progressReporter(label, total, sink);
    try {
      for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
        stillAlive();
        hash.update(chunk);
        received += chunk.length;
        progress.advance(chunk.length);
        if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
      }
    } finally {
      progress.end();
      await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
    }
    if (total !== undefined && received !== total) {
      return { problem: `the connection closed after ${formatBytes(received)} of ${formatBytes(total)}`, retry: true };
    }
    return { hex: hash.digest('hex'), bytes: received };
  } catch (error) {
    const broke = received > 0 ? `the connection broke after ${formatBytes(received)}${total ? ` of ${formatBytes(total)}` : ''}` : undefined;
    const cause = abort.signal.aborted ? String((abort.signal.reason as Error).message) : describeFetchError(error);
    return { problem: broke ? `${broke} (${cause})` : cause, retry: true };
  } finally {
    clearTimeout(idle);
  }
}

/** fetch's "fetch failed" says nothing; its cause says what happened (ECONNREFUSED, ENOTFOUND ...). */
function describeFetchError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code && cause.message) return cause.message.includes(cause.code) ? cause.message : `${cause.code}: ${cause.message}`;
  if (cause?.message) return cause.message;
  return error instanceof Error ? error.message : String(error);
}
