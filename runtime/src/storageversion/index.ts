/**
 * Storage version migration: rewrites every stored object of a CRD in its storage version,
 * then drops the old versions from the CRD's `status.storedVersions`, so a version can be
 * removed from the CRD (what `opgen migrate-storage` runs).
 *
 * Public surface:
 * - `migrateStorageVersions(kinds, { kubeConfig | cluster, qps?, … })` → one {@link StorageMigrationResult} per kind.
 * - `migrateStorageVersionsWhenLeading(mgr, kinds, options?)`: the same as a leader-only runnable.
 * - `planStorageMigration(kinds, options)`: what a migration would rewrite, writing nothing.
 *
 * Imported as `@opgen/runtime/storageversion`.
 *
 * @example
 * import { migrateStorageVersionsWhenLeading } from '@opgen/runtime/storageversion';
 *
 * migrateStorageVersionsWhenLeading(mgr, [v2.Widget]);
 *
 * @module
 */
export { migrateStorageVersions, planStorageMigration, progressAnnotation, type StorageMigrationOptions, type StorageMigrationResult } from './migrate.js';
export { migrateStorageVersionsWhenLeading, type LeaderMigrationOptions } from './when-leading.js';
