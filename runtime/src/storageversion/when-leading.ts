import type { Kind } from '../api/kind.js';
import type { Manager } from '../manager/types.js';
import { sleep } from '../rest/sleep.js';
import { migrateStorageVersions, type StorageMigrationOptions } from './migrate.js';

/** Options of {@link migrateStorageVersionsWhenLeading}. */
export type LeaderMigrationOptions = Pick<StorageMigrationOptions, 'pageSize'> & {
  /** Wait before trying again after a failed run; default 30 000 ms. */
  retryAfterMs?: number;
};

/**
 * Runs {@link migrateStorageVersions} for `kinds` once this manager holds leadership (at
 * start without leader election), through the manager's cluster (its rate limit and request
 * metrics count every request, besides the migration's own pace of 20 a second), logger and
 * metrics; a failed run is logged and tried again until it succeeds or the manager stops.
 *
 * @example
 * const mgr = createManager({
 *   ...managerOptionsFromArgs(),
 *   leaderElectionId: 'bookstore.example.com',
 * });
 * migrateStorageVersionsWhenLeading(mgr, [BookStore]);
 * await mgr.start();
 */
export function migrateStorageVersionsWhenLeading(mgr: Manager, kinds: readonly Kind[], options: LeaderMigrationOptions = {}): void {
  const retryAfterMs = options.retryAfterMs ?? 30_000;
  mgr.addRunnable(async (signal) => {
    while (!signal.aborted) {
      try {
        await migrateStorageVersions(kinds, {
          cluster: mgr.cluster,
          pageSize: options.pageSize,
          logger: mgr.log,
          registry: mgr.metrics.registry,
          signal,
        });
        return;
      } catch (error) {
        if (signal.aborted) return;
        mgr.log.error({ err: error }, `storage migration failed; trying again in ${retryAfterMs} ms`);
        await sleep(retryAfterMs, signal);
      }
    }
  });
}
