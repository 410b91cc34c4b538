/**
 * What caused each queued key, kept only while someone listens for reconcile records (see
 * observe/reconcile-records): the work queue merges events of one key, so the cause is noted
 * when the key is added and taken when its reconcile starts.
 */
import { recordingReconciles, type ReconcileTrigger } from '../observe/reconcile-records.js';

/** A key's causes beyond this many are dropped: a page shows a few, not a storm. */
const MAX_PER_KEY = 5;

/** The triggers of the keys waiting in one controller's queue. */
export interface TriggerBook {
  /** Notes that `trigger` queued `key` (nothing when nobody listens). */
  note(key: string, trigger: ReconcileTrigger): void;
  /** The triggers noted for `key` since its last reconcile started, forgotten now. */
  take(key: string): ReconcileTrigger[];
}

export function createTriggerBook(): TriggerBook {
  const waiting = new Map<string, ReconcileTrigger[]>();
  return {
    note(key, trigger) {
      if (!recordingReconciles()) return;
      const noted = waiting.get(key);
      if (!noted) waiting.set(key, [trigger]);
      // The same event twice in a row (an object updated again) says nothing new.
      else if (noted.length < MAX_PER_KEY && !sameTrigger(noted.at(-1)!, trigger)) noted.push(trigger);
    },
    take(key) {
      const noted = waiting.get(key);
      if (!noted) return [];
      waiting.delete(key);
      return noted;
    },
  };
}

function sameTrigger(a: ReconcileTrigger, b: ReconcileTrigger): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
