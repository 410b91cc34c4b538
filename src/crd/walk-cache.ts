/**
 * What `--watch` keeps of one build's walk for the next: each API file's walked Kinds and
 * errors, reused while the file and everything it depends on are unchanged. A file's
 * dependencies are the files its walk asked the file index for (every import of another API
 * file is resolved through it, cached types included), so an edit to a file no other file
 * imports re-walks that file alone.
 *
 * @module
 */
import type { SourceFile } from 'ts-morph';
import type { Location, UserError } from '../errors.js';
import type { FileIndex } from '../schema/resolve.js';
import type { JSONSchemaProps } from '../schema/types.js';
import type { AssembledCrd, KindVersion } from './assemble.js';

/** One file's walk: its Kinds, the errors it found and the files it asked for. */
interface FileWalk {
  file: SourceFile;
  kinds: KindVersion[];
  errors: UserError[];
  requested: ReadonlySet<string>;
}

/** Walks kept between builds of one process. */
export interface WalkCache {
  /** Each API file's walk, by absolute path. */
  files: Map<string, FileWalk>;
  /** Each CRD's sources (`group/kind` → its Kinds' folders and versions) in the last build without errors. */
  crds: Map<string, string>;
  /** Where each schema node was declared, for every build of the process (the walk context's `locations`). */
  locations: WeakMap<JSONSchemaProps, Location>;
}

/** An empty cache for a first build. */
export function newWalkCache(): WalkCache {
  return { files: new Map(), crds: new Map(), locations: new WeakMap() };
}

/**
 * The files whose earlier walk can stand, or none when a changed file is one something
 * depends on (or a version folder's groupversion_info.ts, which every file of it depends on).
 */
export function reusableWalks(cache: WalkCache, files: ReadonlyMap<string, SourceFile>): Set<string> {
  const changed = new Set<string>();
  for (const [path, file] of files) if (cache.files.get(path)?.file !== file) changed.add(path);
  for (const path of cache.files.keys()) if (!files.has(path)) changed.add(path);
  if ([...changed].some((path) => /[\\/]groupversion_info\.ts$/.test(path))) return new Set();
  for (const walk of cache.files.values()) for (const path of walk.requested) if (changed.has(path)) return new Set();
  return new Set([...files.keys()].filter((path) => !changed.has(path)));
}

/** A file index that notes every path asked for into `requested`. */
export function recordingIndex(files: ReadonlyMap<string, SourceFile>, requested: () => Set<string>): FileIndex {
  const index = new Map(files);
  return Object.assign(index, {
    get(path: string): SourceFile | undefined {
      requested().add(path);
      return Map.prototype.get.call(index, path) as SourceFile | undefined;
    },
  });
}

/**
 * Keeps a file's walk. Its schemas are handed to later builds as they are, not copied:
 * after the walk a build only reads them, but for `--max-desc-len`, which gives the same
 * result however often it is applied.
 */
export function keepWalk(cache: WalkCache, path: string, walk: FileWalk): void {
  cache.files.set(path, walk);
}

/**
 * The CRDs built from reused walks only, of the same Kinds as in the last build without
 * errors: they come out exactly as then, so their checks and their YAML can be skipped.
 */
export function unchangedCrds(cache: WalkCache, crds: readonly AssembledCrd[], kinds: readonly KindVersion[], reused: ReadonlySet<KindVersion>): Set<AssembledCrd> {
  const sources = crdSources(kinds);
  return new Set(
    crds.filter((crd) => {
      const own = sources.get(`${crd.group}/${crd.kind}`) ?? [];
      return own.every((k) => reused.has(k)) && cache.crds.get(`${crd.group}/${crd.kind}`) === signature(own);
    }),
  );
}

/** Notes the CRDs' sources after a build; after one with errors nothing counts as unchanged. */
export function rememberCrds(cache: WalkCache, kinds: readonly KindVersion[], ok: boolean): void {
  cache.crds.clear();
  if (ok) for (const [key, own] of crdSources(kinds)) cache.crds.set(key, signature(own));
}

function crdSources(kinds: readonly KindVersion[]): Map<string, KindVersion[]> {
  const byCrd = new Map<string, KindVersion[]>();
  for (const k of kinds) byCrd.set(`${k.group}/${k.kind}`, [...(byCrd.get(`${k.group}/${k.kind}`) ?? []), k]);
  return byCrd;
}

function signature(kinds: readonly KindVersion[]): string {
  return kinds.map((k) => `${k.folder.dir}:${k.version}`).join('\n');
}
