/**
 * The memory cluster's objects as the live page shows them: the project's kinds and what
 * they own, and each reconciled object before and after its reconcile. The dev process holds
 * the memory cluster, so it watches it in-process (no socket): the project's kinds from the
 * start, and each kind of child once a reconcile wrote one. Each object keeps its last few
 * versions with when they were seen, which is what a reconcile's diff is read from.
 */
import { createTwoFilesPatch } from 'diff';
import type { ReconcileRecord, ApiCallRecord } from '@opgen/runtime/observe';
import { toYaml } from '../../yaml.js';
import type { PageObjects } from './server.js';
import type { MemoryTransport } from '../cluster.js';

/** Versions kept per object: enough for the diffs of its recent reconciles. */
const VERSIONS_KEPT = 20;
/** A watch that ended is opened again after this long. */
const REWATCH_MS = 1_000;

interface WatchedObject {
  apiVersion?: string;
  kind?: string;
  metadata: { uid: string; name: string; namespace?: string; resourceVersion?: string; ownerReferences?: { uid: string }[]; managedFields?: unknown };
  status?: { conditions?: { type: string; status: string; reason?: string; message?: string }[] };
}

interface Tracked {
  kind: string;
  /** Oldest first; `object` undefined once deleted. */
  versions: { at: number; object: WatchedObject | undefined }[];
}

/** One node of the page's tree. */
export interface ObjectNode {
  kind: string;
  namespace?: string;
  name: string;
  conditions: NonNullable<NonNullable<WatchedObject['status']>['conditions']>;
  children: ObjectNode[];
}

/** What the page needs of the cluster besides reconciles, and the calls that show which child kinds to watch. */
export interface ClusterObjects extends PageObjects {
  /** Watches the kinds of objects `calls` wrote, if not watched yet. */
  follow(calls: readonly ApiCallRecord[]): void;
  /** Watches more of the project's kinds (new CRDs), if not watched yet. */
  watchKinds(collections: readonly string[]): void;
  close(): void;
}

/** Watches `collections` (the project's kinds, e.g. `/apis/demo.example.com/v1/widgets`) on `transport`. */
export function watchClusterObjects(transport: MemoryTransport, collections: readonly string[]): ClusterObjects {
  const tracked = new Map<string, Tracked>();
  const rootCollections = new Set<string>();
  /** The kinds of `collections`, learnt from their lists. */
  const rootKinds = new Set<string>();
  const watched = new Set<string>();
  const listeners = new Set<() => void>();
  const stop = new AbortController();
  let notify: ReturnType<typeof setTimeout> | undefined;
  // Changes come in bursts (a reconcile's writes): the page is told once per burst.
  const changed = () => {
    notify ??= setTimeout(() => {
      notify = undefined;
      for (const listener of listeners) listener();
    }, 50);
  };

  const see = (kind: string, object: WatchedObject, deleted: boolean) => {
    const entry = tracked.get(object.metadata.uid) ?? { kind, versions: [] };
    tracked.set(object.metadata.uid, entry);
    entry.versions.push({ at: Date.now(), object: deleted ? undefined : object });
    if (entry.versions.length > VERSIONS_KEPT) entry.versions.shift();
    changed();
  };

  async function watch(collection: string): Promise<void> {
    while (!stop.signal.aborted) {
      try {
        const list = await transport.request<{ kind: string; metadata: { resourceVersion: string }; items: WatchedObject[] }>({ method: 'GET', path: collection, signal: stop.signal });
        const kind = list.kind.replace(/List$/, '');
        if (rootCollections.has(collection)) rootKinds.add(kind);
        for (const item of list.items) see(kind, item, false);
        const stream = await transport.stream({ method: 'GET', path: collection, query: { watch: 'true', resourceVersion: list.metadata.resourceVersion }, signal: stop.signal });
        let rest = '';
        for await (const chunk of stream) {
          const lines = (rest + String(chunk)).split('\n');
          rest = lines.pop() ?? '';
          for (const line of lines.filter(Boolean)) {
            const event = JSON.parse(line) as { type: string; object: WatchedObject };
            if (event.type === 'ADDED' || event.type === 'MODIFIED' || event.type === 'DELETED') see(event.object.kind ?? kind, event.object, event.type === 'DELETED');
          }
        }
      } catch {
        // Stopped, or the kind is gone (its CRD removed): tried again while the session runs.
      }
      await new Promise((resolve) => setTimeout(resolve, REWATCH_MS).unref());
    }
  }

  const start = (collection: string, root = false) => {
    if (root) rootCollections.add(collection);
    if (watched.has(collection)) return;
    watched.add(collection);
    void watch(collection);
  };
  for (const collection of collections) start(collection, true);

  const latest = (entry: Tracked) => entry.versions.at(-1)?.object;
  const nodeOf = (object: WatchedObject, kind: string, depth: number): ObjectNode => ({
    kind,
    ...(object.metadata.namespace ? { namespace: object.metadata.namespace } : {}),
    name: object.metadata.name,
    conditions: object.status?.conditions ?? [],
    // Ownership never cycles in a cluster; the bound keeps a page drawable if it did.
    children: depth > 8 ? [] : childrenOf(object.metadata.uid, depth + 1),
  });
  const sorted = (nodes: ObjectNode[]) => nodes.sort((a, b) => `${a.kind} ${a.namespace ?? ''}/${a.name}`.localeCompare(`${b.kind} ${b.namespace ?? ''}/${b.name}`));
  function childrenOf(uid: string, depth: number): ObjectNode[] {
    const children: ObjectNode[] = [];
    for (const entry of tracked.values()) {
      const object = latest(entry);
      if (object?.metadata.ownerReferences?.some((ref) => ref.uid === uid)) children.push(nodeOf(object, entry.kind, depth));
    }
    return sorted(children);
  }

  return {
    tree() {
      const roots: ObjectNode[] = [];
      for (const entry of tracked.values()) {
        const object = latest(entry);
        if (object && isRoot(object, entry.kind)) roots.push(nodeOf(object, entry.kind, 0));
      }
      return sorted(roots);
    },
    diff(record: ReconcileRecord, until: number) {
      const entry = [...tracked.values()].reverse().find((e) => e.kind === record.kind.kind && e.versions.some((v) => v.object?.metadata.name === record.name && v.object.metadata.namespace === record.namespace));
      if (!entry) return undefined;
      // The operator's clock ends the reconcile before this process sees the watch events of its
      // last writes; the record itself arrives after them.
      const end = Math.max(record.startedAt + record.durationMs, until);
      const before = entry.versions.filter((v) => v.at <= record.startedAt).at(-1)?.object;
      const after = entry.versions.filter((v) => v.at <= end).at(-1)?.object;
      if (before === after) return undefined;
      const patch = createTwoFilesPatch('before', 'after', shown(before), shown(after), undefined, undefined, { context: 3 });
      // The hunks only: the file header says nothing the page does not.
      return patch.slice(patch.indexOf('@@'));
    },
    onChange(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    follow(calls) {
      for (const call of calls) if (call.verb !== 'get' && call.verb !== 'list') start(collectionOf(call.path));
    },
    watchKinds(more) {
      for (const collection of more) start(collection, true);
    },
    close() {
      stop.abort();
      clearTimeout(notify);
    },
  };

  /** Roots: objects of the project's kinds that no other watched object owns. */
  function isRoot(object: WatchedObject, kind: string): boolean {
    const owner = object.metadata.ownerReferences?.find((ref) => tracked.has(ref.uid) && latest(tracked.get(ref.uid)!) !== undefined);
    return rootKinds.has(kind) && !owner;
  }
}

/** An object as its diff shows it: YAML without managedFields (noise a person does not read). */
function shown(object: WatchedObject | undefined): string {
  if (!object) return '';
  const { managedFields: _managed, ...metadata } = object.metadata;
  return toYaml([{ ...object, metadata }]);
}

/** `/api/v1/namespaces/a/configmaps/b/status` → `/api/v1/configmaps`: the kind's collection across namespaces. */
export function collectionOf(path: string): string {
  const segments = path.split('/').filter(Boolean);
  const prefix = segments[0] === 'api' ? segments.slice(0, 2) : segments.slice(0, 3);
  const rest = segments.slice(prefix.length);
  const plural = rest[0] === 'namespaces' && rest.length >= 3 ? rest[2] : rest[0];
  return `/${[...prefix, plural].join('/')}`;
}
