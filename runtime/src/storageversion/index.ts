export { migrateStorageVersions, progressAnnotation, type StorageMigrationOptions, type StorageMigrationResult } from './migrate.js';
export { migrateStorageVersionsWhenLeading, type LeaderMigrationOptions } from './when-leading.js';
