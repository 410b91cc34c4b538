import type { Kind } from '../api/kind.js';
import { ApiError, type ApiStatus } from '../rest/errors.js';
import { METADATA_ONLY } from '../rest/list.js';
import { resourcePath } from '../rest/paths.js';
import type { Transport } from '../rest/transport.js';
import type { KubeObject } from '../object.js';

/** A change a watch delivers; `BOOKMARK` carries only a newer resourceVersion. */
export interface WatchEvent<T> {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK';
  object: T;
}

export interface WatchRequest {
  namespace?: string;
  /** Where to resume from; ignored with `sendInitialEvents`. */
  resourceVersion: string;
  /**
   * A streaming list (Kubernetes' WatchList): the server first sends every object as
   * `ADDED`, then a `BOOKMARK` marked `k8s.io/initial-events-end`, then the changes.
   */
  sendInitialEvents?: boolean;
  /** The server ends the watch after this long; the client then opens a new one. */
  timeoutSeconds: number;
  /** Abort the watch when nothing at all arrives for this long (a half-open connection). */
  idleMs: number;
  signal: AbortSignal;
  /** Called once the server has accepted the watch (HTTP 200). */
  onOpen?: () => void;
  labelSelector?: string;
  fieldSelector?: string;
  /** See `ListRequest.shardSelector`. */
  shardSelector?: string;
  /** Events carry `PartialObjectMetadata`. */
  metadataOnly?: boolean;
}

/**
 * How a watch ended without failing: `ended` when the server closed it (its timeout, a
 * graceful shutdown), `expired` when the server said the resourceVersion is gone (410):
 * the caller must relist.
 */
export type WatchEnd = 'ended' | 'expired';

/**
 * Runs one watch request to its end, calling `onEvent` for each change. Resolves with how
 * it ended; rejects on anything else: an HTTP error, a watch `ERROR` other than 410, a
 * connection that dropped, a silent connection (`idleMs`), or the caller's abort.
 */
export async function watchOnce<T extends KubeObject>(
  transport: Transport,
  kind: Kind<T>,
  request: WatchRequest,
  onEvent: (event: WatchEvent<T>) => void,
): Promise<WatchEnd> {
  const stop = new AbortController();
  const signal = AbortSignal.any([request.signal, stop.signal]);
  const idle = setTimeout(() => stop.abort(idleError(kind, request.idleMs)), request.idleMs);
  try {
    const response = await transport.stream({
      method: 'GET',
      path: resourcePath(kind, request.namespace),
      query: {
        watch: 1,
        // A consistent read, served from the watch cache once it is as fresh as etcd.
        ...(request.sendInitialEvents ? { sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan' } : { resourceVersion: request.resourceVersion }),
        allowWatchBookmarks: true,
        timeoutSeconds: request.timeoutSeconds,
        labelSelector: request.labelSelector,
        fieldSelector: request.fieldSelector,
        shardSelector: request.shardSelector,
      },
      accept: request.metadataOnly ? METADATA_ONLY : undefined,
      signal,
      timeoutMs: 0,
      // A streaming list is the informer's list: it counts against the rate limit as one.
      takesToken: request.sendInitialEvents === true,
    });
    request.onOpen?.();
    return await new Promise<WatchEnd>((resolve, reject) => {
      let pending = '';
      let ended = false;
      const fail = (error: Error) => {
        ended = true;
        response.destroy();
        reject(signal.aborted && signal.reason instanceof Error ? signal.reason : error);
      };
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        if (ended) return;
        idle.refresh();
        pending += chunk;
        let start = 0;
        let newline: number;
        while (!ended && (newline = pending.indexOf('\n', start)) >= 0) {
          const line = pending.slice(start, newline);
          start = newline + 1;
          if (line.trim() === '') continue;
          let event: { type: string; object: unknown };
          try {
            event = JSON.parse(line);
          } catch {
            fail(new Error(`watch of ${kind.plural} sent a line that is not JSON: ${line.slice(0, 100)}`));
            return;
          }
          if (event.type === 'ERROR') {
            const status = event.object as ApiStatus;
            if (status.code === 410) {
              ended = true;
              response.destroy();
              resolve('expired');
            } else {
              fail(new ApiError(status.code ?? 500, status, `WATCH ${kind.plural}`, 'watch error'));
            }
            return;
          }
          try {
            onEvent(event as WatchEvent<T>);
          } catch (error) {
            fail(error as Error);
            return;
          }
        }
        pending = pending.slice(start);
      });
      response.on('end', () => {
        if (ended) return;
        ended = true;
        resolve('ended');
      });
      response.on('error', (error) => !ended && fail(error));
      response.on('close', () => !ended && fail(new Error(`watch of ${kind.plural}: connection closed`)));
    });
  } catch (error) {
    throw signal.aborted && signal.reason instanceof Error && !request.signal.aborted ? signal.reason : error;
  } finally {
    clearTimeout(idle);
  }
}

/** Whether a watch event is the bookmark that ends a streaming list's initial events. */
export function endsInitialEvents(event: WatchEvent<KubeObject>): boolean {
  return event.type === 'BOOKMARK' && event.object.metadata?.annotations?.['k8s.io/initial-events-end'] === 'true';
}

/** Code of the error a watch fails with when it stayed silent past its idle limit. */
export const WATCH_IDLE = 'EWATCHIDLE';

function idleError(kind: Kind, idleMs: number): Error {
  const error: NodeJS.ErrnoException = new Error(
    `watch of ${kind.plural} silent for ${Math.round(idleMs / 1000)} s, no event and no bookmark: the connection is presumed dead`,
  );
  error.code = WATCH_IDLE;
  return error;
}
