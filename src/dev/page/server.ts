/**
 * The live page of `opgen dev`: an HTTP server on loopback, in the dev process, serving one
 * self-contained page (HTML, CSS and script inline: no CDN, works offline) and a stream of
 * Server-Sent Events with each reconcile and each change of the object tree. A page opened
 * late gets the reconciles kept so far first.
 */
import { readFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ReconcileRecord } from '@opgen/runtime/observe';
import { describeResult, describeTriggers, formatDuration } from '../reconcile-line.js';

/** How many reconciles the page keeps for a page opened later; older ones drop off. */
const KEPT = 500;

/** The page's own files (see templates/dev/page). */
const PAGE_DIR = new URL('../../templates/dev/page/', import.meta.url);

/** A reconcile as the page gets it: the record, its words, and a number to ask for its diff by. */
export interface PageReconcile extends ReconcileRecord {
  seq: number;
  /** Epoch milliseconds when the record reached this process, after every watch event of its writes. */
  receivedAt: number;
  text: { triggers: string; result: string; duration: string };
}

/** What the page asks the session for besides reconciles (the memory cluster's objects). */
export interface PageObjects {
  /** The objects of the project's kinds with their owned children, as the page draws them. */
  tree(): unknown;
  /**
   * The reconciled object before `record` started and as it was seen by `until` (when its
   * record arrived: the watch events of its writes are seen by then), as a unified diff;
   * undefined when unknown.
   */
  diff(record: ReconcileRecord, until: number): string | undefined;
  /** Calls `listener` whenever the tree changed; returns its removal. */
  onChange(listener: () => void): () => void;
}

/** A served page. */
export interface DevPage {
  /** `http://127.0.0.1:<port>/`. */
  readonly url: string;
  /** Shows a finished reconcile on every open page. */
  publish(record: ReconcileRecord): void;
  close(): Promise<void>;
}

/** The page as one document: its stylesheet and script put inline. */
function pageHtml(): string {
  const read = (name: string) => readFileSync(new URL(name, PAGE_DIR), 'utf8');
  // Functions as replacements: a `$&` in the inlined code stays as written.
  return read('index.html')
    .replace('/* page.css */', () => read('page.css'))
    .replace('/* page.js */', () => read('page.js'));
}

/** Starts the page's server on a free loopback port. */
export async function startDevPage(objects: PageObjects | undefined): Promise<DevPage> {
  const html = pageHtml();
  const kept: PageReconcile[] = [];
  const streams = new Set<ServerResponse>();
  let seq = 0;
  const send = (event: string, data: unknown) => {
    const frame = `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
    for (const stream of streams) stream.write(frame);
  };
  const offChange = objects?.onChange(() => send('objects', objects.tree()));

  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname === '/') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      response.end(html);
    } else if (url.pathname === '/events') {
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
      response.write(`event: hello\ndata: ${JSON.stringify({ reconciles: kept, objects: objects?.tree() ?? null })}\n\n`);
      streams.add(response);
      request.on('close', () => streams.delete(response));
    } else if (url.pathname === '/diff') {
      const wanted = Number(url.searchParams.get('seq'));
      const record = kept.find((r) => r.seq === wanted);
      const diff = record && objects?.diff(record, record.receivedAt);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ diff: diff ?? null }));
    } else if (url.pathname === '/favicon.ico') {
      // No icon, and no 404 for the browser's console to report.
      response.writeHead(204).end();
    } else {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    publish(record) {
      const shown: PageReconcile = {
        ...record,
        seq: ++seq,
        receivedAt: Date.now(),
        text: { triggers: describeTriggers(record.triggers), result: describeResult(record.result), duration: formatDuration(record.durationMs) },
      };
      kept.push(shown);
      if (kept.length > KEPT) kept.shift();
      send('reconcile', shown);
    },
    async close() {
      offChange?.();
      for (const stream of streams) stream.end();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
