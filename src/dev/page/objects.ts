/**
 * The memory cluster's objects as the live page shows them: the project's kinds and what
 * they own, each reconciled object before and after its reconcile, and the Events about each.
 * The dev process holds the memory cluster, so it reads it in-process (no socket) through the
 * runtime's own cache (list+watch → reflector → store, with its relists and retries): an
 * informer per project kind from the start, and one per kind of child once a reconcile wrote
 * one. The informers' handlers keep each object's last few versions with when they were
 * seen, which is what a reconcile's diff is read from.
 */
import { createTwoFilesPatch } from 'diff';
import type { Condition, Kind, ObjectMeta } from '@opgen/runtime/api';
import type { Cached } from '@opgen/runtime/cache';
import type { ReconcileRecord, ApiCallRecord } from '@opgen/runtime/observe';
import { toYaml } from '../../yaml.js';
import type { MemoryConnection } from '../cluster.js';
import type { ProjectCache } from '../project-runtime.js';
import { watchEvents, type ObjectEvent } from './events.js';
import type { PageObjects } from './server.js';

/** Versions kept per object: enough for the diffs of its recent reconciles. */
const VERSIONS_KEPT = 20;

/** An object of any kind, as far as the page reads it. */
interface WatchedObject {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  status?: { conditions?: Condition[] };
}

interface Tracked {
  kind: Kind;
  /** Oldest first; `object` undefined once deleted. */
  versions: { at: number; object: Cached<WatchedObject> | undefined }[];
}

/** One node of the page's tree. */
export interface ObjectNode {
  kind: string;
  namespace?: string;
  name: string;
  conditions: NonNullable<NonNullable<Cached<WatchedObject>['status']>['conditions']>;
  /** The Events about it, oldest first. */
  events: ObjectEvent[];
  children: ObjectNode[];
}

/** What the page needs of the cluster besides reconciles, and the calls that show which child kinds to watch. */
export interface ClusterObjects extends PageObjects {
  /** Watches the kinds of objects `calls` wrote, if not watched yet. */
  follow(calls: readonly ApiCallRecord[]): void;
  /** Watches more of the project's kinds (new CRDs), if not watched yet. */
  watchKinds(kinds: readonly Kind[]): void;
  close(): void;
}

/** Watches `kinds` (the project's kinds) and the Events of the memory cluster on `connection`, with the project's own cache. */
export function watchClusterObjects(runtime: ProjectCache, connection: MemoryConnection, kinds: readonly Kind[]): ClusterObjects {
  const tracked = new Map<string, Tracked>();
  const rootKinds = new Set<string>();
  const listeners = new Set<() => void>();
  const stop = new AbortController();
  const cache = runtime.createCache(connection);
  let notify: ReturnType<typeof setTimeout> | undefined;
  // Changes come in bursts (a reconcile's writes): the page is told once per burst.
  const changed = () => {
    notify ??= setTimeout(() => {
      notify = undefined;
      for (const listener of listeners) listener();
    }, 50);
  };
  const eventsOf = watchEvents(cache, changed);

  const see = (kind: Kind, object: Cached<WatchedObject>, deleted: boolean) => {
    const entry = tracked.get(object.metadata.uid) ?? { kind, versions: [] };
    tracked.set(object.metadata.uid, entry);
    entry.versions.push({ at: Date.now(), object: deleted ? undefined : object });
    if (entry.versions.length > VERSIONS_KEPT) entry.versions.shift();
    changed();
  };

  const watch = (kind: Kind, root = false) => {
    if (root) rootKinds.add(kindKey(kind));
    if (cache.has(kind)) return;
    // The cache's objects are never changed in place (a new version is a new object), so the history keeps them as they are.
    cache.informerFor(kind as Kind<WatchedObject>).addHandler({
      add: (object) => see(kind, object, false),
      update: (_old, object) => see(kind, object, false),
      delete: (object) => see(kind, object, true),
    });
  };
  for (const kind of kinds) watch(kind, true);
  cache.start(stop.signal);

  const latest = (entry: Tracked) => entry.versions.at(-1)?.object;
  const nodeOf = (object: Cached<WatchedObject>, kind: string, depth: number): ObjectNode => ({
    kind,
    ...(object.metadata.namespace ? { namespace: object.metadata.namespace } : {}),
    name: object.metadata.name,
    conditions: object.status?.conditions ?? [],
    events: eventsOf({ kind, uid: object.metadata.uid, namespace: object.metadata.namespace, name: object.metadata.name }),
    // Ownership never cycles in a cluster; the bound keeps a page drawable if it did.
    children: depth > 8 ? [] : childrenOf(object.metadata.uid, depth + 1),
  });
  const sorted = (nodes: ObjectNode[]) => nodes.sort((a, b) => `${a.kind} ${a.namespace ?? ''}/${a.name}`.localeCompare(`${b.kind} ${b.namespace ?? ''}/${b.name}`));
  function childrenOf(uid: string, depth: number): ObjectNode[] {
    const children: ObjectNode[] = [];
    for (const entry of tracked.values()) {
      const object = latest(entry);
      if (object?.metadata.ownerReferences?.some((ref) => ref.uid === uid)) children.push(nodeOf(object, entry.kind.kind, depth));
    }
    return sorted(children);
  }

  return {
    tree() {
      const roots: ObjectNode[] = [];
      for (const entry of tracked.values()) {
        const object = latest(entry);
        if (object && isRoot(object, entry.kind)) roots.push(nodeOf(object, entry.kind.kind, 0));
      }
      return sorted(roots);
    },
    diff(record: ReconcileRecord, until: number) {
      const entry = [...tracked.values()]
        .reverse()
        .find((e) => e.kind.kind === record.kind.kind && e.kind.group === record.kind.group && e.versions.some((v) => v.object?.metadata.name === record.name && v.object.metadata.namespace === record.namespace));
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
      for (const call of calls) if (call.verb !== 'get' && call.verb !== 'list') watch(kindOfCall(call));
    },
    watchKinds(more) {
      for (const kind of more) watch(kind, true);
    },
    close() {
      stop.abort();
      clearTimeout(notify);
    },
  };

  /** Roots: objects of the project's kinds that no other watched object owns. */
  function isRoot(object: Cached<WatchedObject>, kind: Kind): boolean {
    const owner = object.metadata.ownerReferences?.find((ref) => tracked.has(ref.uid) && latest(tracked.get(ref.uid)!) !== undefined);
    return rootKinds.has(kindKey(kind)) && !owner;
  }
}

/** A kind's identity across versions: its group and kind. */
const kindKey = (kind: Pick<Kind, 'group' | 'kind'>) => `${kind.kind}.${kind.group}`;

/** An object as its diff shows it: YAML without managedFields (noise a person does not read). */
function shown(object: Cached<WatchedObject> | undefined): string {
  if (!object) return '';
  const { managedFields: _managed, ...metadata } = object.metadata;
  return toYaml([{ ...object, metadata }]);
}

/** The kind a call wrote, from its path: `/api/v1/namespaces/a/configmaps/b/status` → core v1 `configmaps`, namespaced. */
export function kindOfCall(call: Pick<ApiCallRecord, 'kind' | 'path'>): Kind {
  const segments = call.path.split('/').filter(Boolean);
  const core = segments[0] === 'api';
  const [group, version] = core ? ['', segments[1]!] : [segments[1]!, segments[2]!];
  const rest = segments.slice(core ? 2 : 3);
  const namespaced = rest[0] === 'namespaces' && rest.length >= 3;
  return { group, version, kind: call.kind, plural: (namespaced ? rest[2] : rest[0])!, namespaced };
}
