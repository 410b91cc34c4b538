import type { Kind } from '../api/kind.js';
import { ApiError, isGone } from '../rest/errors.js';
import { listAll } from '../rest/list.js';
import type { LoggerLike } from '../rest/logger.js';
import { kindLabel } from '../rest/paths.js';
import { sleep } from '../rest/sleep.js';
import type { Transport } from '../rest/transport.js';
import type { KubeObject } from '../object.js';
import { backoffDelay, type BackoffOptions } from './backoff.js';
import { endsInitialEvents, WATCH_IDLE, watchOnce, type WatchEvent } from './watch.js';

/**
 * What a watcher produces: a complete paged list (first or after a relist); a streaming
 * list, object by object (`streamStarted`, each `streamed` object as it arrives, and
 * `streamEnded` once complete: objects it did not name are gone); or one watch event.
 */
export type WatcherOutput<T> =
  | { type: 'listed'; items: T[]; resourceVersion: string }
  | { type: 'streamStarted' }
  | { type: 'streamed'; object: T }
  | { type: 'streamEnded'; resourceVersion: string }
  | { type: 'event'; event: WatchEvent<T> };

/** Where a watcher reports, besides its output. */
export interface WatcherSink<T> {
  output(output: WatcherOutput<T>): void;
  /** The server answered (a list, a watch, an event). */
  contact(): void;
  /** The server accepted a watch: the connection works again. */
  opened(): void;
  /** A list or watch failed (not a routine 410); the watcher retries after its backoff. */
  failed(error: Error): void;
  /** Objects received so far of the list in progress (paged or streamed), for progress logs. */
  listing(objects: number): void;
}

export interface WatcherOptions {
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  /** See `ListRequest.shardSelector`. */
  shardSelector?: string;
  metadataOnly?: boolean;
  logger: LoggerLike;
  backoff?: BackoffOptions;
  /**
   * How lists are read: `stream` asks for a streaming list (a watch with
   * `sendInitialEvents=true`, Kubernetes' WatchList), falling back to pages for good when the
   * server refuses it or a stream ends before its initial events did; `pages` lists in
   * pages of 500 only. Default `stream`.
   */
  lists?: 'stream' | 'pages';
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
 * How a streaming list is refused where a paged list may still work: 400 or 422 from an API
 * server that does not serve them, 403 to an identity that may list but not watch (its
 * informer then relists instead of watching, as before streaming lists).
 */
const REFUSED_STREAM = new Set([400, 403, 422]);
/** A streaming list reports its progress every this many objects. */
const LISTING_PROGRESS_EVERY = 500;

/**
 * The list+watch loop of one kind (kube-rs's watcher), holding no objects, only the
 * resourceVersion to resume from, until `signal` aborts:
 * - lists by a streaming list where the server serves one (a watch whose initial events
 *   are the list, ended by a marked bookmark, continuing with the changes), else in pages
 *   and then watches from the list's resourceVersion with bookmarks; resumes every later
 *   watch from the last resourceVersion seen (bookmarks included);
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
  const selection = { labelSelector: options.labelSelector, fieldSelector: options.fieldSelector, shardSelector: options.shardSelector, metadataOnly: options.metadataOnly };
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

  /** Streaming lists until the server shows it does not serve them; then pages for good. */
  let stream = options.lists !== 'pages';
  /** The streaming list just failed (e.g. 429 while the watch cache of a new CRD initializes): the next list is paged. */
  let pagesOnce = false;
  /** Streaming lists are not served: pages from now on, logged once. */
  function pagesFromNowOn(reason: string): void {
    stream = false;
    logger.info({ kind: label, reason }, `streaming list of ${label} refused: listing in pages`);
  }

  while (!signal.aborted) {
    let watchStart: number | undefined;
    let events = 0;
    const provedHealthy = () => watchStart !== undefined && (events > 0 || Date.now() - watchStart >= HEALTHY_WATCH_MS);
    /** How many objects a streaming list has delivered; undefined once it is complete (or when listing in pages). */
    let initial: number | undefined;
    try {
      if (mustList && (!stream || pagesOnce)) {
        pagesOnce = false;
        const listed = await listAll(transport, kind, { namespace, signal, ownBackoff: true, onPage: sink.listing, ...selection });
        resourceVersion = listed.resourceVersion;
        sink.contact();
        sink.output({ type: 'listed', items: listed.items, resourceVersion });
        mustList = false;
      }
      initial = mustList ? 0 : undefined;
      if (initial !== undefined) sink.output({ type: 'streamStarted' });
      const timeoutSeconds = WATCH_TIMEOUT_SECONDS + Math.floor(Math.random() * WATCH_TIMEOUT_SPREAD_SECONDS);
      watchStart = Date.now();
      const end = await watchOnce(
        transport,
        kind,
        { namespace, resourceVersion, sendInitialEvents: initial !== undefined, timeoutSeconds, idleMs: timeoutSeconds * 1000 + WATCH_GRACE_MS, signal, onOpen: sink.opened, ...selection },
        (event) => {
          events++;
          sink.contact();
          const version = event.object.metadata?.resourceVersion;
          if (initial !== undefined) {
            if (endsInitialEvents(event)) {
              initial = undefined;
              mustList = false;
              resourceVersion = version ?? resourceVersion;
              sink.output({ type: 'streamEnded', resourceVersion });
            } else if (event.type === 'ADDED') {
              // Each object of the snapshot is stored as it arrives, as kube-rs's watcher
              // applies its init events: a relist's new objects reach the handlers without
              // waiting for the whole collection (a shard taking over a dead one's objects).
              sink.output({ type: 'streamed', object: event.object });
              if (++initial % LISTING_PROGRESS_EVERY === 0) sink.listing(initial);
            }
            return;
          }
          sink.output({ type: 'event', event });
          if (version) resourceVersion = version;
        },
      );
      if (initial !== undefined && end === 'ended') {
        // The server ignored the request for initial events (no marked bookmark came), or the
        // collection is too large to stream within one watch: pages from now on, at once.
        pagesFromNowOn(`the watch ended after ${initial} initial events without the bookmark that ends them`);
        continue;
      }
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
      if (initial !== undefined && events === 0 && error instanceof ApiError) {
        // The server answered the streaming list with an error: a paged list now, as
        // client-go's reflector falls back (progress beats waiting); for good if refused.
        if (REFUSED_STREAM.has(error.code)) pagesFromNowOn(error.message);
        else {
          logger.info({ kind: label, reason: error.message }, `streaming list of ${label} failed: listing in pages this time`);
          pagesOnce = true;
        }
        continue;
      }
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
