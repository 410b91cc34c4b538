import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Client } from '../client/client.js';
import { isNotFound } from '../rest/errors.js';
import { Event } from '../client/kinds.js';
import { silentLogger, type LoggerLike } from '../rest/logger.js';
import { formatMicroTime } from '../client/time.js';
import type { DeepReadonly, KubeObject } from '../object.js';

/** An Event's type, as the API server accepts it. */
export type EventType = 'Normal' | 'Warning';

/** Records Kubernetes Events (events.k8s.io/v1) about objects, as `kubectl describe` shows them. */
export interface EventRecorder {
  /**
   * Records that `action` happened to `regarding` for `reason`, with a human-readable
   * `note` (cut to 1 KiB). Returns at once: the write happens in the background, and a
   * failure is logged, never thrown into the caller. The same event repeated within the
   * series window bumps `series.count` and `series.lastObservedTime` of the first Event
   * instead of creating another. `action` defaults to `reason`.
   */
  event(regarding: DeepReadonly<KubeObject>, type: EventType, reason: string, note: string, action?: string): void;
  /** Resolves once every write started so far has finished: for shutdown and tests. */
  flush(): Promise<void>;
}

/** Options of {@link createEventRecorder}. */
export interface EventRecorderOptions {
  /** Who reports, e.g. `demovolume-controller` or `example.com/demovolume-controller`. */
  reportingController: string;
  /** Which replica reports; default `<reportingController>-<hostname>`. */
  reportingInstance?: string;
  logger?: LoggerLike;
  /** Repeats closer than this to the previous one join its series; default 6 min, as client-go. */
  seriesWindowMs?: number;
  /** Series remembered at most, oldest forgotten first; default 4096. */
  maxSeries?: number;
  /** Wall time of `eventTime` and series; default real time (a manager passes its clock's). */
  now?: () => Date;
}

/** One Event as recorded: the body created first, then series updates. */
interface Series {
  body: EventBody;
  count: number;
  lastObserved: Date;
  /** Set once the API server has the Event. */
  created: boolean;
  writing: boolean;
  /** Changed while a write was in flight: write once more after it. */
  dirty: boolean;
}

interface EventBody extends KubeObject {
  eventTime: string;
  reportingController: string;
  reportingInstance: string;
  action: string;
  reason: string;
  note: string;
  type: EventType;
  regarding: { apiVersion?: string; kind?: string; name?: string; namespace?: string; uid?: string; resourceVersion?: string };
  series?: { count: number; lastObservedTime: string };
}

const NOTE_LIMIT_BYTES = 1024;
const NAME_LIMIT = 253;

/**
 * Creates an events recorder writing through `client`. Like client-go's events
 * broadcaster it folds repeats into series rather than spamming the API with copies,
 * and writes at most one request per Event at a time.
 */
export function createEventRecorder(client: Client, options: EventRecorderOptions): EventRecorder {
  const logger = options.logger ?? silentLogger;
  const reportingController = options.reportingController;
  const reportingInstance = (options.reportingInstance ?? `${reportingController}-${hostname()}`).slice(0, 128);
  const windowMs = options.seriesWindowMs ?? 6 * 60_000;
  const maxSeries = options.maxSeries ?? 4096;
  /** Keyed by what makes two events the same; kept in order of last use. */
  const series = new Map<string, Series>();
  const inFlight = new Set<Promise<void>>();

  function forgetStale(now: number): void {
    for (const [key, entry] of series) {
      if (now - entry.lastObserved.getTime() < windowMs && series.size <= maxSeries) break;
      if (entry.writing) continue;
      series.delete(key);
    }
  }

  async function write(entry: Series): Promise<void> {
    const observed = formatMicroTime(entry.lastObserved);
    const seriesField = entry.count > 1 ? { count: entry.count, lastObservedTime: observed } : undefined;
    if (entry.created) {
      try {
        await client.patch(Event, entry.body, { series: seriesField });
        return;
      } catch (error) {
        // Events expire (1 h by default); a series outliving its Event starts a new one.
        if (!isNotFound(error)) throw error;
        entry.created = false;
        entry.body = { ...entry.body, metadata: { ...entry.body.metadata, name: eventName(entry.body.regarding.name) } };
      }
    }
    await client.create(Event, { ...entry.body, ...(seriesField && { series: seriesField }) } as Event);
    entry.created = true;
  }

  function schedule(entry: Series): void {
    if (entry.writing) {
      entry.dirty = true;
      return;
    }
    entry.writing = true;
    entry.dirty = false;
    const done = write(entry)
      .catch((error: unknown) => {
        const { regarding, reason } = entry.body;
        logger.error({ err: error, regarding, reason, count: entry.count }, 'recording an event failed');
      })
      .finally(() => {
        inFlight.delete(done);
        entry.writing = false;
        if (entry.dirty) schedule(entry);
      });
    inFlight.add(done);
  }

  return {
    event(regarding, type, reason, note, action = reason) {
      try {
        const now = options.now?.() ?? new Date();
        const meta = regarding.metadata ?? {};
        const reference = {
          apiVersion: regarding.apiVersion,
          kind: regarding.kind,
          name: meta.name,
          namespace: meta.namespace,
          uid: meta.uid,
        };
        const text = truncateUtf8(note, NOTE_LIMIT_BYTES);
        const key = JSON.stringify([reference, type, reason, action, text]);
        forgetStale(now.getTime());
        const existing = series.get(key);
        if (existing && now.getTime() - existing.lastObserved.getTime() < windowMs) {
          existing.count++;
          existing.lastObserved = now;
          series.delete(key);
          series.set(key, existing);
          schedule(existing);
          return;
        }
        const entry: Series = {
          body: {
            apiVersion: 'events.k8s.io/v1',
            kind: 'Event',
            metadata: { name: eventName(meta.name), namespace: meta.namespace || 'default' },
            eventTime: formatMicroTime(now),
            reportingController,
            reportingInstance,
            action,
            reason,
            note: text,
            type,
            regarding: { ...reference, resourceVersion: meta.resourceVersion },
          },
          count: 1,
          lastObserved: now,
          created: false,
          writing: false,
          dirty: false,
        };
        series.delete(key);
        series.set(key, entry);
        schedule(entry);
      } catch (error) {
        logger.error({ err: error, reason }, 'recording an event failed');
      }
    },

    async flush() {
      while (inFlight.size > 0) await Promise.all([...inFlight]);
    },
  };
}

/** `<regarding name>.<unique hex>`, like client-go's, within the 253-character limit. */
function eventName(regardingName: string | undefined): string {
  const suffix = `${Date.now().toString(16)}${randomBytes(4).toString('hex')}`;
  return `${(regardingName || 'event').slice(0, NAME_LIMIT - suffix.length - 1)}.${suffix}`;
}

function truncateUtf8(text: string, limit: number): string {
  if (Buffer.byteLength(text) <= limit) return text;
  let cut = text.slice(0, limit);
  while (Buffer.byteLength(cut) > limit) cut = cut.slice(0, -1);
  return cut;
}
