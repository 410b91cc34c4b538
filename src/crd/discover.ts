/**
 * Finds the API version folders of a project (`src/api/<version>/` or
 * `src/api/<group>/<version>/`, each with a `groupversion_info.ts`) and parses only the
 * files under `src/api`: no tsconfig, no dependency resolution, no type check.
 *
 * @module
 */
import { basename, dirname, relative } from 'node:path';
import type { SourceFile } from 'ts-morph';
import { UserError } from '../errors.js';
import { readComment } from '../markers/block.js';
import { allCommentLines } from '../markers/comments.js';
import { createWrappedNode, ts } from '../ts-morph.js';

/** One `src/api/…/<version>` folder. */
export interface VersionFolder {
  /** Relative to the project root, `/`-separated. */
  dir: string;
  group: string;
  version: string;
  info: SourceFile;
  /** The `.ts` files directly in the folder. */
  files: SourceFile[];
  /** `+kubebuilder:validation:Optional` at file level: properties are optional unless marked required. */
  optionalByDefault: boolean;
  /** `+kubebuilder:skip`: no CRDs from this folder. */
  skip: boolean;
  /** `+kubebuilder:skip:description`: no descriptions in this folder's schemas. */
  skipDescriptions: boolean;
}

/** Parsed API files kept between runs of one process (absolute path → text and its parse). */
export type ParsedFiles = Map<string, { text: string; file: SourceFile }>;

/**
 * The given files (absolute path → text), parsed and wrapped in ts-morph nodes; those in
 * `parsed` with the same text are reused, and `parsed` is updated. Parsed without JSDoc nodes: markers and descriptions are read from the comment text, and JSDoc
 * parsing is a third of the parse time of a typical API file. Parsed without parent
 * pointers too (about a tenth of the parse): the build reads these trees top down, from
 * TypeScript's nodes or through ts-morph wrappers made from their file, never upwards.
 */
export function parseSourceFiles(texts: ReadonlyMap<string, string>, parsed?: ParsedFiles): Map<string, SourceFile> {
  const files = new Map<string, SourceFile>();
  for (const [path, text] of texts) {
    const known = parsed?.get(path);
    if (known?.text === text) {
      files.set(path, known.file);
      continue;
    }
    const node = ts.createSourceFile(path, text, { languageVersion: ts.ScriptTarget.Latest, jsDocParsingMode: ts.JSDocParsingMode.ParseNone }, false);
    const file = createWrappedNode(node) as SourceFile;
    files.set(path, file);
    parsed?.set(path, { text, file });
  }
  if (parsed) for (const path of parsed.keys()) if (!texts.has(path)) parsed.delete(path);
  return files;
}

/** Finds the version folders among the API files; problems with their file-level markers go to `errors`. */
export function findVersionFolders(root: string, files: ReadonlyMap<string, SourceFile>, errors: UserError[]): VersionFolder[] {
  const folders: VersionFolder[] = [];
  for (const [path, info] of files) {
    if (basename(path) !== 'groupversion_info.ts') continue;
    const dir = dirname(path);
    const rel = relative(root, dir).split('\\').join('/');
    const infoPath = `${rel}/groupversion_info.ts`;
    const block = readComment(allCommentLines(info), infoPath);
    errors.push(...block.errors);
    let group: string | undefined;
    let version = basename(dir);
    let optionalByDefault = false;
    let skip = false;
    let skipDescriptions = false;
    for (const marker of block.markers) {
      if (marker.def.ignored) continue;
      if (!marker.def.targets.includes('package')) {
        errors.push(new UserError(`${marker.text} has no meaning at file level`, marker.location, 'put it above the declaration it is about'));
        continue;
      }
      switch (marker.canonical) {
        case 'groupName':
          group = marker.value as string;
          break;
        case 'versionName':
          version = marker.value as string;
          break;
        case 'kubebuilder:validation:Optional':
          optionalByDefault = true;
          break;
        case 'kubebuilder:skip':
          skip = true;
          break;
        case 'kubebuilder:skip:description':
          skipDescriptions = true;
          break;
      }
    }
    if (group === undefined) {
      errors.push(new UserError(`${infoPath} has no +groupName marker`, { file: infoPath, line: 1, column: 1 }, 'add a comment line: +groupName=<group>.<domain>'));
      continue;
    }
    if (!/^v\d+((alpha|beta)\d+)?$/.test(version)) {
      errors.push(
        new UserError(`version ${version} is not a Kubernetes version name`, { file: infoPath, line: 1, column: 1 }, 'use v1, v1alpha1, v2beta3, …; or set +versionName='),
      );
      continue;
    }
    const inFolder = [...files.entries()].filter(([p]) => dirname(p) === dir).map(([, f]) => f);
    folders.push({ dir: rel, group, version, info, files: inFolder, optionalByDefault, skip, skipDescriptions });
  }
  return folders.sort((a, b) => a.dir.localeCompare(b.dir));
}
