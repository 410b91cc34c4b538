import { groupOf } from '../api/group.js';
import type { Kind } from '../api/kind.js';
import type { Informer } from '../cache/types.js';
import { objectKey, type DeepReadonly, type KubeObject } from '../object.js';

/** client-go's `ExpectationsTimeout`: a record this old no longer blocks its key. */
const DEFAULT_TTL_MS = 5 * 60_000;

/**
 * client-go's ControllerExpectations, as the ReplicaSet controller uses them: before a
 * reconcile creates or deletes children it records how many creations and which deletions
 * it expects for its key; the informer of the children lowers them as it sees them. While
 * something is still expected, the cache does not yet show the reconcile's own writes, so
 * the next reconcile of that key must not count children and act again (it would create
 * the same Pods twice). Keys are the reconcile keys (`namespace/name`).
 */
export interface Expectations {
  /**
   * Call before creating `count` children for `key`; replaces the creations still expected
   * (as client-go, so an expired record does not linger). A create that fails must be
   * reported with {@link creationObserved}.
   */
  expectCreations(key: string, count: number): void;
  /**
   * Call before deleting the children `childKeys` (`namespace/name`) of `key`; replaces the
   * deletions still expected. A delete that fails must be reported with {@link deletionObserved}.
   */
  expectDeletions(key: string, childKeys: string[]): void;
  /** One expected creation was seen by the informer, or will never happen (the create failed). */
  creationObserved(key: string): void;
  /** The deletion of `childKey` was seen, or will never happen (the delete failed). */
  deletionObserved(key: string, childKey: string): void;
  /**
   * Whether `key` may act on what the cache shows: nothing is pending, or the record is
   * older than the TTL (a missed event must not block the key for good).
   */
  satisfied(key: string): boolean;
  /** Drops `key`'s record, e.g. once its object is deleted. */
  forget(key: string): void;
  /**
   * Lowers expectations from `informer`'s events of children whose controller owner is of
   * `ownerKind`: an add counts as a creation, a delete (or a deletionTimestamp appearing) as
   * a deletion. Returns a function that stops observing.
   */
  observe<T extends KubeObject>(informer: Informer<T>, ownerKind: Kind): () => void;
}

/** Options of {@link createExpectations}. */
export interface ExpectationsOptions {
  /** How long a record may block its key; default 5 minutes, as client-go. */
  ttlMs?: number;
  /** Clock in milliseconds (monotonic); for tests. */
  now?: () => number;
}

interface Pending {
  creations: number;
  deletions: Set<string>;
  /** When the last expectation was set: the TTL counts from here. */
  at: number;
}

/** Creates an empty set of expectations; see {@link Expectations}. */
export function createExpectations(options: ExpectationsOptions = {}): Expectations {
  const ttlMs = options.ttlMs ?? DEFAULT_TTL_MS;
  const now = options.now ?? (() => performance.now());
  const pending = new Map<string, Pending>();

  function record(key: string): Pending {
    let entry = pending.get(key);
    if (!entry) pending.set(key, (entry = { creations: 0, deletions: new Set(), at: now() }));
    entry.at = now();
    return entry;
  }

  function settle(key: string, entry: Pending): void {
    if (entry.creations <= 0 && entry.deletions.size === 0) pending.delete(key);
  }

  const expectations: Expectations = {
    expectCreations(key, count) {
      const entry = record(key);
      entry.creations = Math.max(0, count);
      settle(key, entry);
    },

    expectDeletions(key, childKeys) {
      const entry = record(key);
      entry.deletions = new Set(childKeys);
      settle(key, entry);
    },

    creationObserved(key) {
      const entry = pending.get(key);
      if (!entry) return;
      entry.creations--;
      settle(key, entry);
    },

    deletionObserved(key, childKey) {
      const entry = pending.get(key);
      if (!entry) return;
      entry.deletions.delete(childKey);
      settle(key, entry);
    },

    satisfied(key) {
      const entry = pending.get(key);
      return !entry || now() - entry.at >= ttlMs;
    },

    forget(key) {
      pending.delete(key);
    },

    observe(informer, ownerKind) {
      /** The owner's key and the child's, when the child's controller is of `ownerKind`. */
      const keys = (child: DeepReadonly<KubeObject>): [string, string] | undefined => {
        const ref = child.metadata?.ownerReferences?.find((r) => r.controller === true);
        if (!ref || ref.kind !== ownerKind.kind || groupOf(ref.apiVersion) !== ownerKind.group) return undefined;
        const namespace = child.metadata?.namespace;
        return [objectKey(namespace, ref.name), objectKey(namespace, child.metadata?.name ?? '')];
      };
      const deleted = (child: DeepReadonly<KubeObject>) => {
        const found = keys(child);
        if (found) expectations.deletionObserved(...found);
      };
      return informer.addHandler({
        add(child) {
          // An object first seen already terminating is a deletion in progress, as client-go counts it.
          if (child.metadata?.deletionTimestamp) return deleted(child);
          const found = keys(child);
          if (found) expectations.creationObserved(found[0]);
        },
        update(old, child) {
          if (child.metadata?.deletionTimestamp && !old.metadata?.deletionTimestamp) deleted(child);
        },
        delete: deleted,
      });
    },
  };
  return expectations;
}

/** `apps/v1` → `apps`, `v1` → `` (the core group). */
