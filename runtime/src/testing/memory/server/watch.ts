/**
 * Watches: a stream of newline-delimited JSON events (`ADDED`, `MODIFIED`, `DELETED`,
 * `BOOKMARK`, `ERROR`) in resourceVersion order, replayed from the resource's kept history
 * for a given resourceVersion, or starting with the current objects as `ADDED` for none or
 * `0`. A resourceVersion older than the history gets an `ERROR` event with 410 Expired, as
 * the watch cache sends it; the server ends the watch after `timeoutSeconds`. With
 * selectors, an object that stops matching is `DELETED` and one that starts is `ADDED`.
 */
import { PassThrough, type Readable } from 'node:stream';
import { badRequest, expired, invalid, notImplemented } from './errors.js';
import { encodeObject, type Representation } from './codec.js';
import { selection } from './reads.js';
import { storageKey } from './registry.js';
import { apiVersionOf } from './resources.js';
import type { ServerState, Target } from './state.js';
import { oldestWatchable, type Change, type Obj } from './storage.js';

/** Bookmarks go out this often while a watch is open (the cacher's bookmark frequency). */
const BOOKMARK_INTERVAL_MS = 60_000;

export function openWatch(state: ServerState, target: Target, query: Record<string, string>, representation: Representation): Readable {
  const { info, namespace } = target;
  const initialEvents = query.sendInitialEvents === 'true';
  if (initialEvents && query.resourceVersionMatch !== 'NotOlderThan') {
    throw invalid({ group: 'meta.k8s.io', kind: 'ListOptions' }, '', [
      { type: 'FieldValueForbidden', field: 'resourceVersionMatch', detail: 'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan' },
    ]);
  }
  if (initialEvents && query.allowWatchBookmarks !== 'true' && query.allowWatchBookmarks !== '1') throw notImplemented('a watch with sendInitialEvents but without allowWatchBookmarks');
  const matches = selection(info, query);
  const bookmarks = query.allowWatchBookmarks === 'true' || query.allowWatchBookmarks === '1';
  const resourceKey = storageKey(info);
  const store = state.storage.store(resourceKey);
  const prefix = info.namespaced && namespace ? `${namespace}/` : '';
  const stream = new PassThrough();
  const send = (type: string, object: Obj) => stream.write(`${JSON.stringify({ type, object })}\n`);
  const encode = (object: Obj) => encodeObject(info, object, representation);

  /** One stored change as this watch sees it through its selectors. */
  const deliver = (change: Change) => {
    if (!change.key.startsWith(prefix)) return;
    const now = change.type !== 'DELETED' && matches(change.object);
    const before = change.previous !== undefined && matches(change.previous);
    if (change.type === 'ADDED') {
      if (now) send('ADDED', encode(change.object));
    } else if (change.type === 'DELETED') {
      if (before) send('DELETED', encode(change.object));
    } else if (now && before) send('MODIFIED', encode(change.object));
    else if (now) send('ADDED', encode(change.object));
    else if (before) {
      // The cacher sends the object as it was when it last matched, at the change's resourceVersion.
      const gone = structuredClone(change.previous!);
      gone.metadata.resourceVersion = String(change.rv);
      send('DELETED', encode(gone));
    }
  };

  const rvText = query.resourceVersion;
  if (initialEvents) {
    // A streaming list: the current objects, then a bookmark saying the initial events ended.
    for (const key of [...store.objects.keys()].filter((k) => k.startsWith(prefix)).sort()) {
      const object = store.objects.get(key)!;
      if (matches(object)) send('ADDED', encode(object));
    }
    send('BOOKMARK', { kind: info.kind, apiVersion: apiVersionOf(info), metadata: { resourceVersion: String(state.storage.revision()), annotations: { 'k8s.io/initial-events-end': 'true' } } });
  } else if (!rvText || rvText === '0') {
    for (const key of [...store.objects.keys()].filter((k) => k.startsWith(prefix)).sort()) {
      const object = store.objects.get(key)!;
      if (matches(object)) send('ADDED', encode(object));
    }
  } else {
    const rv = Number(rvText);
    if (!Number.isInteger(rv) || rv < 0) throw badRequest(`invalid resource version: ${rvText}`);
    const oldest = oldestWatchable(store);
    if (oldest !== undefined && rv < oldest) {
      send('ERROR', expired(`too old resource version: ${rv} (${oldest})`).status);
      stream.end();
      return stream;
    }
    for (const change of store.history) if (change.rv > rv) deliver(change);
  }

  const unlisten = state.storage.listen((key, change) => {
    if (key === resourceKey && !stream.destroyed && !stream.writableEnded) deliver(change);
  });
  const bookmark = () => {
    if (!stream.writableEnded) send('BOOKMARK', { kind: info.kind, apiVersion: apiVersionOf(info), metadata: { resourceVersion: String(state.storage.revision()) } });
  };
  const timers: NodeJS.Timeout[] = [];
  if (bookmarks) timers.push(setInterval(bookmark, BOOKMARK_INTERVAL_MS).unref());
  // The API server's default is a random 30–60 minutes (its minRequestTimeout of 1800 s, times 1 to 2).
  const timeoutSeconds = query.timeoutSeconds ? Number(query.timeoutSeconds) : 1800 * (1 + Math.random());
  timers.push(
    setTimeout(() => {
      if (bookmarks) bookmark();
      stream.end();
    }, timeoutSeconds * 1000).unref(),
  );
  const stop = () => {
    unlisten();
    for (const timer of timers) clearTimeout(timer);
  };
  stream.on('close', stop);
  stream.on('finish', stop);
  return stream;
}
