/**
 * The Kubernetes Events of the memory cluster, as the live page shows them for an object:
 * both Event APIs (the runtime's recorder writes events.k8s.io/v1, older clients core/v1),
 * each read through the runtime's cache and indexed by the object it is about.
 */
import type { Kind } from '@opgen/runtime/api';
import type { Cache, Cached } from '@opgen/runtime/cache';

/** One Event about an object, as the page lists it. */
export interface ObjectEvent {
  /** ISO time it first happened. */
  time: string;
  /** ISO time it last happened, when it happened more than once. */
  lastTime?: string;
  /** How often it happened (a series counts its repeats). */
  count: number;
  type: string;
  reason: string;
  message: string;
}

/** The object an Event is about: `regarding` (events.k8s.io/v1) or `involvedObject` (core/v1). */
interface Reference {
  kind?: string;
  namespace?: string;
  name?: string;
  uid?: string;
}

/** An Event of either API, with the fields the page reads (the other API's left out). */
interface AnyEvent {
  metadata?: { uid?: string; creationTimestamp?: string };
  type?: string;
  reason?: string;
  regarding?: Reference;
  involvedObject?: Reference;
  note?: string;
  message?: string;
  eventTime?: string | null;
  series?: { count?: number; lastObservedTime?: string };
  deprecatedFirstTimestamp?: string | null;
  deprecatedLastTimestamp?: string | null;
  deprecatedCount?: number;
  firstTimestamp?: string | null;
  lastTimestamp?: string | null;
  count?: number;
}

const EVENT_KINDS: Kind<AnyEvent>[] = [
  { group: 'events.k8s.io', version: 'v1', kind: 'Event', plural: 'events', namespaced: true },
  { group: '', version: 'v1', kind: 'Event', plural: 'events', namespaced: true },
];

const BY_OBJECT = 'object';

/** Events point at an object by uid; one without a uid (some clients leave it out) by kind, namespace and name. */
const referenceKey = (ref: Reference | undefined): string => (ref?.uid ? ref.uid : `${ref?.kind ?? ''} ${ref?.namespace ?? ''}/${ref?.name ?? ''}`);

/** The Events of an object, oldest first. */
export type EventsOf = (object: { kind: string; uid: string; namespace?: string; name: string }) => ObjectEvent[];

/** Watches both Event APIs in `cache`; calls `changed` on every Event written or removed. */
export function watchEvents(cache: Cache, changed: () => void): EventsOf {
  const informers = EVENT_KINDS.map((kind) => {
    const informer = cache.informerFor(kind);
    informer.addIndex(BY_OBJECT, (event) => [referenceKey(event.regarding ?? event.involvedObject)]);
    informer.addHandler({ add: changed, update: changed, delete: changed });
    return informer;
  });
  return (object) => {
    const keys = [object.uid, referenceKey({ kind: object.kind, namespace: object.namespace, name: object.name })];
    // Keyed by uid: a server that serves one Event through both APIs (a real one) lists it once.
    const found = new Map<string, Cached<AnyEvent>>();
    for (const informer of informers) {
      for (const value of keys) for (const event of informer.list({ index: { name: BY_OBJECT, value } })) found.set(event.metadata.uid, event);
    }
    return [...found.values()].map(shown).sort((a, b) => Date.parse(a.time) - Date.parse(b.time));
  };
}

/** An Event of either API as the page lists it. */
function shown(event: Cached<AnyEvent>): ObjectEvent {
  const time = event.eventTime ?? event.firstTimestamp ?? event.deprecatedFirstTimestamp ?? event.metadata.creationTimestamp ?? '';
  const count = event.series?.count ?? event.count ?? event.deprecatedCount ?? 1;
  const lastTime = event.series?.lastObservedTime ?? event.lastTimestamp ?? event.deprecatedLastTimestamp ?? undefined;
  return { time, ...(count > 1 && lastTime ? { lastTime } : {}), count, type: event.type ?? '', reason: event.reason ?? '', message: event.note ?? event.message ?? '' };
}
