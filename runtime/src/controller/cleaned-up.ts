/** Entries kept at most; the oldest go first (an object deleted by other means never comes back for its entry). */
const LIMIT = 10_000;

/**
 * Finalizers whose cleanup finished in this process while the finalizer is still on the
 * object, by object uid and finalizer name. Removing the finalizer can fail after the
 * cleanup succeeded (conflicts with other writers, an outage): the next reconcile then
 * only removes it, so a cleanup runs once per process, not once per failed removal.
 */
const done = new Set<string>();

const keyOf = (uid: string | undefined, finalizer: string): string | undefined => (uid ? `${uid}/${finalizer}` : undefined);

/** Whether the cleanup of `finalizer` for the object of `uid` already finished here. */
export function cleanedUp(uid: string | undefined, finalizer: string): boolean {
  const key = keyOf(uid, finalizer);
  return key !== undefined && done.has(key);
}

/** Notes that the cleanup finished (`finished` true) or that the finalizer is gone (false). */
export function markCleanedUp(uid: string | undefined, finalizer: string, finished: boolean): void {
  const key = keyOf(uid, finalizer);
  if (key === undefined) return;
  if (!finished) {
    done.delete(key);
    return;
  }
  done.add(key);
  if (done.size > LIMIT) done.delete(done.values().next().value!);
}
