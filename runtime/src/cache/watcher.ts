import type { Kind } from '../api/kind.js';
import { ApiError, isGone } from '../rest/errors.js';
import { listAll } from '../rest/list.js';
import type { LoggerLike } from '../rest/logger.js';
import { kindLabel } from '../rest/paths.js';
import { sleep } from '../rest/sleep.js';
import type { Transport } from '../rest/transport.js';
import type { KubeObject } from '../object.js';
import { backoffDelay, type BackoffOptions } from './backoff.js';
import { WATCH_IDLE, watchOnce, type WatchEvent } from './watch.js';

/** What a watcher produces: a complete list (first or after a relist), or one watch event. */
export type WatcherOutput<T> = { type: 'listed'; items: T[]; resourceVersion: string } | { type: 'event'; event: WatchEvent<T> };

/** Where a watcher reports, besides its output. */
export interface WatcherSink<T> {
  output(output: WatcherOutput<T>): void;
  /** The server answered (a list, a watch, an event). */
  contact(): void;
  /** The server accepted a watch: the connection works again. */
  opened(): void;
  /** A list or watch failed (not a routine 410); the watcher retries after its backoff. */
  failed(error: Error): void;
}

export interface WatcherOptions {
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  metadataOnly?: boolean;
  logger: LoggerLike;
  backoff?: BackoffOptions;
}

/** A watch that delivered something, or stayed open this long, was healthy: backoff restarts. */
const HEALTHY_WATCH_MS = 10_000;
/**
 * Watches are asked to end after 45–55 s (spread so informers do not reconnect together)
 * and reopened from the last resourceVersion, which the API server answers from its watch
 * cache. A watch still open and silent 10 s past its server-side timeout is on a dead
 * connection (a NAT or load balancer that dropped the flow answers nothing, ever): so a
 * half-open connection is found within about a minute. Bookmarks alone cannot do that:
 * measured against kube-apiserver 1.36, the first bookmark of an idle watch comes after
 * 120 s and the next ones every 60 s.
 */
const WATCH_TIMEOUT_SECONDS = 45;
const WATCH_TIMEOUT_SPREAD_SECONDS = 10;
const WATCH_GRACE_MS = 10_000;
/** A watch the server closes sooner than this without a single event counts as a failure. */
const MIN_WATCH_MS = 1_000;

/**
 * The list+watch loop of one kind (kube-rs's watcher), holding no objects, only the
 * resourceVersion to resume from, until `signal` aborts:
 * - lists in pages, then watches from the list's resourceVersion with bookmarks, and
 *   resumes every later watch from the last resourceVersion seen (bookmarks included);
 * - on 410 Gone (HTTP or a watch ERROR event) relists after a backoff;
 * - when the server refuses a watch (403 Forbidden, 5xx…) falls back to relisting, so a
 *   kind that may be listed but not watched is still refreshed, never stale for good;
 * - when a watch stays open and silent past its server-side timeout (a half-open
 *   connection) logs the stall and reconnects from the last resourceVersion;
 * - every failure backs off exponentially 0.8 s → 30 s with jitter, reset once a watch
 *   proves healthy; a watch the server ends normally reopens at once; a list the server
 *   cannot be reached for is not retried inside its call besides;
 * - a backoff after an outage ends when the server is ready again (the transport's one
 *   `/readyz` probe), plus a jitter of at most the first delay.
 */
export async function runWatcher<T extends KubeObject>(transport: Transport, kind: Kind<T>, options: WatcherOptions, sink: WatcherSink<T>, signal: AbortSignal): Promise<void> {
  const label = kindLabel(kind);
  const { logger, namespace } = options;
  const selection = { labelSelector: options.labelSelector, fieldSelector: options.fieldSelector, metadataOnly: options.metadataOnly };
  let resourceVersion = '';
  let mustList = true;
  let failures = 0;
  /** Whether the last failure was a 410: the server answered, so only a run of 410s lengthens the wait. */
  let lastExpired = false;
  function countFailure(expired: boolean, healthy: boolean): void {
    // A 410 after an outage is the server answering again: the outage's failures do not
    // lengthen the relist's wait.
    if (healthy || (expired && !lastExpired)) failures = 0;
    lastExpired = expired;
    failures++;
  }

  async function backOff(error: Error, phase: string, expired: boolean): Promise<void> {
    const delayMs = Math.round(backoffDelay(failures, options.backoff));
    if (expired) {
      logger.info({ kind: label, resourceVersion, retryInMs: delayMs, reason: error.message }, 'watch expired (410 Gone): relisting');
      await sleep(delayMs, signal);
      return;
    }
    sink.failed(error);
    logger.warn({ kind: label, err: error, failures, retryInMs: delayMs, phase, resourceVersion }, `${phase} of ${label} failed; retrying`);
    // After an outage the backoff has grown long: the end of the outage ends it too, with a
    // jittered step of at most the first delay so the informers of a process do not relist at once.
    const done = new AbortController();
    const both = AbortSignal.any([signal, done.signal]);
    const recovered = transport.recovered(both).then(() => !done.signal.aborted && !signal.aborted);
    const woken = await Promise.race([sleep(delayMs, both).then(() => false), recovered]);
    done.abort();
    if (woken) await sleep(Math.round(Math.random() * (options.backoff?.initialMs ?? 800)), signal);
  }

  while (!signal.aborted) {
    let watchStart: number | undefined;
    let events = 0;
    const provedHealthy = () => watchStart !== undefined && (events > 0 || Date.now() - watchStart >= HEALTHY_WATCH_MS);
    try {
      if (mustList) {
        const listed = await listAll(transport, kind, { namespace, signal, ownBackoff: true, ...selection });
        resourceVersion = listed.resourceVersion;
        sink.contact();
        sink.output({ type: 'listed', items: listed.items, resourceVersion });
        mustList = false;
      }
      const timeoutSeconds = WATCH_TIMEOUT_SECONDS + Math.floor(Math.random() * WATCH_TIMEOUT_SPREAD_SECONDS);
      watchStart = Date.now();
      const end = await watchOnce(
        transport,
        kind,
        { namespace, resourceVersion, timeoutSeconds, idleMs: timeoutSeconds * 1000 + WATCH_GRACE_MS, signal, onOpen: sink.opened, ...selection },
        (event) => {
          events++;
          sink.contact();
          sink.output({ type: 'event', event });
          const version = event.object.metadata?.resourceVersion;
          if (version) resourceVersion = version;
        },
      );
      if (end === 'expired') {
        // A relist is a full read of the collection: back off like any failure, so that
        // informers of a restarted or compacted server do not all relist at once.
        countFailure(true, provedHealthy());
        mustList = true;
        await backOff(new Error(`watch from resourceVersion ${resourceVersion} expired (410 Gone)`), 'watch', true);
        continue;
      }
      if (events === 0 && Date.now() - watchStart < MIN_WATCH_MS) throw new Error('watch closed by the server as soon as it opened');
      sink.contact();
      failures = 0;
      lastExpired = false;
    } catch (error) {
      if (signal.aborted) return;
      const phase = mustList ? 'list' : 'watch';
      const expired = !mustList && isGone(error);
      countFailure(expired, provedHealthy());
      if (!mustList && error instanceof ApiError) {
        // The server refused the watch (403, 410, 5xx…): the store would miss every change
        // from now on, so the next try lists again instead of only re-watching.
        mustList = true;
      } else if ((error as NodeJS.ErrnoException).code === WATCH_IDLE) {
        logger.warn({ kind: label, resourceVersion }, `watch of ${label} stalled: reconnecting from resourceVersion ${resourceVersion}`);
      }
      await backOff(error as Error, phase, expired);
    }
  }
}
