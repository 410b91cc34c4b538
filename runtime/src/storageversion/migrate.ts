import type { KubeConfig } from '../rest/kubeconfig.js';
import type { Logger } from 'pino';
import { Counter, type Registry } from 'prom-client';
import type { Kind } from '../api/kind.js';
import { isConflict, isGone, isNotFound } from '../rest/errors.js';
import type { TokenBucket } from '../rest/token-bucket.js';
import { createTransport, type Transport } from '../rest/transport.js';
import { tokenBucketFor } from '../rest/token-bucket.js';
import { paced, type Cluster } from '../rest/cluster.js';

/** Options of {@link migrateStorageVersions}. */
export interface StorageMigrationOptions {
  /** The cluster, for a connection of the migration's own; or give `cluster`. */
  kubeConfig?: KubeConfig;
  /**
   * The {@link Cluster} to send through instead of `kubeConfig` (the manager passes its own):
   * its token bucket and request metrics then count every request of the migration.
   */
  cluster?: Cluster;
  /**
   * The migration's own pace, requests per second, default 20 (a migration must not starve
   * the API server); on a {@link Cluster} it applies besides the cluster's own limit.
   */
  qps?: number;
  /** Burst of that pace; default `qps`. */
  burst?: number;
  /** A token bucket for that pace instead (shared with other work); not together with `qps`. */
  rateLimiter?: TokenBucket;
  /** Objects per list page; default 100. */
  pageSize?: number;
  /** One line per kind migrated (and one per restart of a list); default: silent. */
  logger?: Pick<Logger, 'info' | 'warn'>;
  /** Registers `opgen_storage_migration_objects_total{crd}` here when given. */
  registry?: Registry;
  /** Called after each page of objects with the kind's count so far, for a progress display. */
  onProgress?: (progress: { crd: string; rewritten: number }) => void;
  signal?: AbortSignal;
}

/** What happened to one kind's CRD. */
export interface StorageMigrationResult {
  /** The CRD's name, `<plural>.<group>`. */
  crd: string;
  storageVersion: string;
  /** `status.storedVersions` before the migration. */
  storedVersions: string[];
  /** Objects rewritten in this run (0 when there was nothing to migrate); by {@link planStorageMigration}, those it would rewrite. */
  rewritten: number;
  /** Whether the run picked up where an interrupted one stopped. */
  resumed: boolean;
}

/** The CRD annotation where progress is kept, so that a migration killed halfway resumes instead of starting over. */
export const progressAnnotation = 'opgen.dev/storage-migration';

interface Progress {
  storageVersion: string;
  continue: string;
}

interface Crd {
  metadata: { name: string; resourceVersion?: string; annotations?: Record<string, string> };
  spec: { group: string; names: { plural: string }; scope: string; versions: { name: string; storage: boolean }[] };
  status?: { storedVersions?: string[] };
}

interface ObjectList {
  metadata?: { continue?: string };
  items?: { metadata?: { name?: string; namespace?: string } }[];
}

const crdsPath = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const MERGE_PATCH = 'application/merge-patch+json';

/**
 * Moves every object of each kind's CRD into the CRD's storage version, then trims
 * `status.storedVersions` to it, so older versions can be removed from the CRD. A CRD whose
 * `storedVersions` holds only the storage version is left alone.
 *
 * Each object is rewritten by an empty merge patch: the API server reads it (converting it from
 * the version it was stored in) and stores it again in the storage version, changing nothing
 * else (the generation stays). Objects are listed in pages; after each page the continue token
 * is kept in the CRD's `opgen.dev/storage-migration` annotation, so a run that was killed
 * resumes where it stopped (or starts over if the token has expired). An object deleted
 * meanwhile is skipped; one created meanwhile is stored in the new version anyway.
 *
 * @example
 * import { loadKubeConfig } from '@opgen/runtime/manager';
 * import { migrateStorageVersions } from '@opgen/runtime/storageversion';
 * import { BookStore } from './api/v1alpha2/bookstore_types.js';
 *
 * await migrateStorageVersions([BookStore], { kubeConfig: loadKubeConfig() });
 */
export async function migrateStorageVersions(kinds: readonly Kind[], options: StorageMigrationOptions): Promise<StorageMigrationResult[]> {
  return run(kinds, options, true);
}

/**
 * What {@link migrateStorageVersions} would do, writing nothing: each kind's CRD is read and
 * its objects are listed (from where an interrupted run stopped, as a real run would), and
 * `rewritten` counts the objects a run would rewrite now. `opgen migrate-storage --dry-run`.
 *
 * @example
 * import { planStorageMigration } from '@opgen/runtime/storageversion';
 *
 * for (const r of await planStorageMigration([BookStore], { kubeConfig: loadKubeConfig() })) {
 *   console.log(`${r.crd}: ${r.rewritten} objects to rewrite into ${r.storageVersion}`);
 * }
 */
export async function planStorageMigration(kinds: readonly Kind[], options: StorageMigrationOptions): Promise<StorageMigrationResult[]> {
  return run(kinds, options, false);
}

async function run(kinds: readonly Kind[], options: StorageMigrationOptions, write: boolean): Promise<StorageMigrationResult[]> {
  if (options.rateLimiter && (options.qps || options.burst)) throw new Error('migrateStorageVersions: give either rateLimiter or qps/burst, not both');
  const qps = options.qps ?? 20;
  const pace = options.rateLimiter ?? tokenBucketFor(qps, options.burst ?? qps);
  const transport = connection(options, pace);
  const rewrites = options.registry && counterIn(options.registry);
  const results: StorageMigrationResult[] = [];
  for (const name of new Set(kinds.map((kind) => `${kind.plural}.${kind.group}`))) {
    results.push(await migrateCrd(transport, name, options, write, (count) => rewrites?.inc({ crd: name }, count)));
  }
  return results;
}

/** The migration's transport, paced by `pace`: on the given cluster, or of its own for a kubeconfig. */
function connection(options: StorageMigrationOptions, pace: TokenBucket | undefined): Transport {
  if (options.cluster && options.kubeConfig) throw new Error('migrateStorageVersions: give either cluster or kubeConfig, not both');
  if (options.cluster) return paced(options.cluster.transport, pace);
  if (options.kubeConfig) return createTransport(options.kubeConfig, { rateLimiter: pace });
  throw new Error('migrateStorageVersions: give cluster or kubeConfig');
}

function counterIn(registry: Registry): Counter<'crd'> {
  const name = 'opgen_storage_migration_objects_total';
  const existing = registry.getSingleMetric(name);
  if (existing) return existing as Counter<'crd'>;
  return new Counter({ name, help: 'Objects rewritten into the storage version of their CRD by migrateStorageVersions.', labelNames: ['crd'], registers: [registry] });
}

async function migrateCrd(transport: Transport, name: string, options: StorageMigrationOptions, write: boolean, counted: (n: number) => void): Promise<StorageMigrationResult> {
  const { signal, logger } = options;
  const crd = await transport.request<Crd>({ method: 'GET', path: `${crdsPath}/${name}`, signal });
  const storageVersion = crd.spec.versions.find((v) => v.storage)?.name;
  if (!storageVersion) throw new Error(`CRD ${name} has no storage version`);
  const storedVersions = crd.status?.storedVersions ?? [];
  const progress = readProgress(crd, storageVersion);
  const result: StorageMigrationResult = { crd: name, storageVersion, storedVersions, rewritten: 0, resumed: progress !== undefined };
  if (storedVersions.length === 1 && storedVersions[0] === storageVersion && !progress) return result;

  const collection = `/apis/${crd.spec.group}/${storageVersion}/${crd.spec.names.plural}`;
  const namespaced = crd.spec.scope === 'Namespaced';
  let token = progress?.continue ?? '';
  for (;;) {
    let page: ObjectList;
    try {
      page = await transport.request<ObjectList>({ method: 'GET', path: collection, query: { limit: options.pageSize ?? 100, continue: token || undefined }, signal });
    } catch (error) {
      // The token expired (etcd compacted past it): every object must be listed again.
      if (!isGone(error) || !token) throw error;
      logger?.warn({ crd: name }, 'storage migration: continue token expired, listing from the start');
      token = '';
      continue;
    }
    for (const item of page.items ?? []) {
      const itemName = item.metadata?.name;
      if (!itemName) continue;
      if (!write) {
        result.rewritten++;
        continue;
      }
      const path = namespaced ? `/apis/${crd.spec.group}/${storageVersion}/namespaces/${encodeURIComponent(item.metadata?.namespace ?? '')}/${crd.spec.names.plural}/${encodeURIComponent(itemName)}` : `${collection}/${encodeURIComponent(itemName)}`;
      try {
        await transport.request({ method: 'PATCH', path, body: {}, contentType: MERGE_PATCH, query: { fieldManager: 'opgen-storage-migrator' }, signal });
        result.rewritten++;
        counted(1);
      } catch (error) {
        if (!isNotFound(error)) throw error;
      }
    }
    options.onProgress?.({ crd: name, rewritten: result.rewritten });
    token = page.metadata?.continue ?? '';
    if (!token) break;
    if (write) await saveProgress(transport, name, { storageVersion, continue: token }, signal);
  }
  if (!write) return result;
  await finish(transport, name, storageVersion, signal);
  logger?.info({ crd: name, storageVersion, storedVersions, rewritten: result.rewritten, resumed: result.resumed }, `storage migration: ${name} stored as ${storageVersion} only`);
  return result;
}

function readProgress(crd: Crd, storageVersion: string): Progress | undefined {
  const text = crd.metadata.annotations?.[progressAnnotation];
  if (!text) return undefined;
  try {
    const progress = JSON.parse(text) as Progress;
    // Progress towards another storage version says nothing about this one.
    return progress.storageVersion === storageVersion && typeof progress.continue === 'string' ? progress : undefined;
  } catch {
    return undefined;
  }
}

function saveProgress(transport: Transport, name: string, progress: Progress, signal: AbortSignal | undefined): Promise<unknown> {
  return transport.request({ method: 'PATCH', path: `${crdsPath}/${name}`, body: { metadata: { annotations: { [progressAnnotation]: JSON.stringify(progress) } } }, contentType: MERGE_PATCH, signal });
}

/**
 * Trims `storedVersions` to the storage version, unless the storage version changed while
 * the objects were rewritten (then the run's work is for a version no longer stored: a
 * later run migrates again). The resourceVersion guards the read-modify-write.
 */
async function finish(transport: Transport, name: string, storageVersion: string, signal: AbortSignal | undefined): Promise<void> {
  for (;;) {
    const crd = await transport.request<Crd>({ method: 'GET', path: `${crdsPath}/${name}`, signal });
    if (crd.spec.versions.find((v) => v.storage)?.name !== storageVersion) throw new Error(`CRD ${name}: the storage version changed during the migration; run it again`);
    try {
      await transport.request({
        method: 'PATCH',
        path: `${crdsPath}/${name}/status`,
        body: { metadata: { resourceVersion: crd.metadata.resourceVersion }, status: { storedVersions: [storageVersion] } },
        contentType: MERGE_PATCH,
        signal,
      });
      if (crd.metadata.annotations?.[progressAnnotation] !== undefined) {
        await transport.request({ method: 'PATCH', path: `${crdsPath}/${name}`, body: { metadata: { annotations: { [progressAnnotation]: null } } }, contentType: MERGE_PATCH, signal });
      }
      return;
    } catch (error) {
      if (!isConflict(error)) throw error;
    }
  }
}
