import type { DeepReadonly, KubeObject } from '../object.js';

/** A change an informer saw; `oldObject` is set for updates. The objects are the cache's: read-only. */
export interface WatchEvent<T extends KubeObject = KubeObject> {
  type: 'create' | 'update' | 'delete';
  object: DeepReadonly<T>;
  oldObject?: DeepReadonly<T>;
  /** A `create` for an object that was there before the controller started watching (its informer's initial list). */
  initialList?: boolean;
}

/** Decides whether an event should enqueue work; events it rejects are dropped. */
export type Predicate<T extends KubeObject = KubeObject> = (event: WatchEvent<T>) => boolean;

/**
 * Passes updates only when `metadata.generation` changed, i.e. the spec changed; status and
 * metadata-only updates are dropped. Creates and deletes pass. Objects without a
 * generation (most built-in kinds without a spec) always pass.
 */
export function generationChanged(): Predicate {
  return (event) => {
    if (event.type !== 'update') return true;
    const before = event.oldObject?.metadata?.generation;
    const after = event.object.metadata?.generation;
    return before === undefined || after === undefined || before !== after;
  };
}

function sameRecord(a: Readonly<Record<string, string>> | undefined, b: Readonly<Record<string, string>> | undefined): boolean {
  const left = Object.entries(a ?? {});
  if (left.length !== Object.keys(b ?? {}).length) return false;
  return left.every(([k, v]) => b?.[k] === v);
}

/** Passes updates only when `metadata.annotations` changed; creates and deletes pass. */
export function annotationChanged(): Predicate {
  return (event) =>
    event.type !== 'update' || !sameRecord(event.oldObject?.metadata?.annotations, event.object.metadata?.annotations);
}

/** Passes updates only when `metadata.labels` changed; creates and deletes pass. */
export function labelChanged(): Predicate {
  return (event) =>
    event.type !== 'update' || !sameRecord(event.oldObject?.metadata?.labels, event.object.metadata?.labels);
}

/**
 * Passes events of objects whose labels include every `key: value` of `selector` (for
 * updates, the new object's labels).
 */
export function labelSelector(selector: Record<string, string>): Predicate {
  const wanted = Object.entries(selector);
  return (event) => {
    const labels = event.object.metadata?.labels ?? {};
    return wanted.every(([k, v]) => labels[k] === v);
  };
}
