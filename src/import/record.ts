/**
 * What PROJECT records of each import (`imports:`): its origin (file, URL, cluster CRD or
 * stdin), the sha256 of what was read, and the CRDs it held; so that a re-import from a URL
 * can refuse content that changed, and `opgen upgrade` can import again.
 *
 * @module
 */
import { UserError } from '../errors.js';
import { projectFileName, type ProjectConfig } from '../project/model.js';
import type { Origin, Source } from './source.js';

/** One `imports:` entry of PROJECT. */
export type ImportRecord = Origin & { sha256: string; crds: string[] };

const key = 'imports';

/** The imports PROJECT records. */
export function importRecords(project: ProjectConfig): ImportRecord[] {
  const value = project.extra[key];
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((r) => typeof r === 'object' && r !== null && typeof (r as ImportRecord).sha256 === 'string' && Array.isArray((r as ImportRecord).crds))) {
    throw new UserError(`${key}: expected a list of {file|url|cluster, sha256, crds}`, { file: projectFileName });
  }
  return value as ImportRecord[];
}

/** An origin as file headers and warnings name it: the recorded path, the URL, the cluster's CRD, or stdin. */
export function originName(origin: Origin): string {
  if ('url' in origin) return origin.url;
  if ('file' in origin) return origin.file;
  if ('cluster' in origin) return `cluster CRD ${origin.cluster}`;
  return 'stdin';
}

function sameOrigin(a: Origin, b: Origin): boolean {
  if ('url' in a) return 'url' in b && a.url === b.url;
  if ('file' in a) return 'file' in b && a.file === b.file;
  if ('cluster' in a) return 'cluster' in b && a.cluster === b.cluster;
  return 'stdin' in b;
}

/**
 * Refuses a URL whose content changed since PROJECT recorded its import, unless `update`:
 * a pinned URL that now serves something else is a supply-chain problem, not an upgrade.
 */
export function checkChecksum(project: ProjectConfig, source: Source, update: boolean): void {
  if (!('url' in source.origin) || update) return;
  const recorded = importRecords(project).find((r) => sameOrigin(r, source.origin));
  if (recorded && recorded.sha256 !== source.sha256) {
    throw new UserError(
      `${source.name}: sha256 ${source.sha256} differs from ${recorded.sha256} recorded in ${projectFileName} at its last import`,
      undefined,
      'check the change, then import again with --update to accept it',
    );
  }
}

/**
 * The project with `source`'s import recorded: an earlier import of the same origin is
 * replaced where it stands, and its CRDs leave any other origin's record (dropped when empty).
 */
export function withImport(project: ProjectConfig, source: Source, crds: readonly string[]): ProjectConfig {
  const record: ImportRecord = { ...source.origin, sha256: source.sha256, crds: [...crds].sort() };
  // A CRD now imported from here (a release's new URL) is no longer another record's.
  const records = importRecords(project).flatMap((r) => {
    if (sameOrigin(r, source.origin)) return [r];
    const left = r.crds.filter((crd) => !record.crds.includes(crd));
    return left.length === 0 ? [] : [{ ...r, crds: left }];
  });
  const at = records.findIndex((r) => sameOrigin(r, source.origin));
  const updated = at < 0 ? [...records, record] : records.map((r, i) => (i === at ? record : r));
  return { ...project, extra: { ...project.extra, [key]: updated } };
}
