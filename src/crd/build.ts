/**
 * The CRD pipeline: API files → version folders → Kinds → CRDs, every schema checked
 * against the API server's rules. Pure: it takes file texts and returns CRDs or errors.
 *
 * @module
 */
import type { SourceFile } from 'ts-morph';
import { type Location, UserError } from '../errors.js';
import type { ProjectConfig } from '../project/model.js';
import { type WalkContext, createContext, displayPath, fail } from '../schema/context.js';
import { isListInterface, isRootInterface, walkKind } from '../schema/kind.js';
import { fileDeclarations } from '../schema/resolve.js';
import { checkDeclaration, dropDescriptions, isRootDeclaration } from '../schema/walk.js';
import type { JSONSchemaProps } from '../schema/types.js';
import { Node } from '../ts-morph.js';
import { checkMarkerValues } from '../validation/marker-values.js';
import { checkDefaults, checkStructural } from '../validation/structural.js';
import { type AssembledCrd, type KindVersion, assembleCrds } from './assemble.js';
import { limitDescriptions } from './descriptions.js';
import { findVersionFolders, parseSourceFiles, type ParsedFiles, type VersionFolder } from './discover.js';

export type { ParsedFiles } from './discover.js';
export { newWalkCache, type WalkCache } from './walk-cache.js';
import { locatePath } from './locate.js';
import { locateExpression } from './locate-rule.js';
import { celTypeProblems } from './cel-checked.js';
import { checkGroupVersions, checkKindHandles } from './runtime-handles.js';
import { strayMarkers } from './stray-markers.js';
import { syntaxErrors } from './syntax.js';
import { keepWalk, recordingIndex, rememberCrds, reusableWalks, unchangedCrds, type WalkCache } from './walk-cache.js';

export interface BuildOptions {
  project: ProjectConfig;
  generatorVersion: string;
  /** `--max-desc-len`: shorten descriptions to this many characters (0 drops them). */
  maxDescriptionLength?: number;
  /** Files parsed by an earlier build in this process (`--watch`), reused where unchanged. */
  parsed?: ParsedFiles;
  /** Walks of an earlier build in this process (`--watch`), reused where nothing they depend on changed. */
  walks?: WalkCache;
}

export interface BuildResult {
  crds: AssembledCrd[];
  errors: UserError[];
  /** CRDs exactly as the last build without errors made them (only with `walks`). */
  unchanged: ReadonlySet<AssembledCrd>;
  /** Where each schema node of the CRDs was declared in the API files. */
  locations: WeakMap<JSONSchemaProps, Location>;
}

/** Builds the CRDs of the API files `texts` (absolute path → text) of the project at `root`. */
export function buildCrds(root: string, texts: ReadonlyMap<string, string>, options: BuildOptions): BuildResult {
  const errors: UserError[] = [];
  const files = parseSourceFiles(texts, options.parsed);
  // A file TypeScript cannot parse has no reliable declarations to walk.
  const broken = syntaxErrors(root, files);
  if (broken.length > 0) {
    if (options.walks) rememberCrds(options.walks, [], false);
    return { crds: [], errors: broken, unchanged: new Set(), locations: new WeakMap() };
  }
  const folders = findVersionFolders(root, files, errors);
  checkGroupVersions(root, folders, errors);
  const folderOf = new Map<string, VersionFolder>();
  for (const folder of folders) for (const file of folder.files) folderOf.set(file.getFilePath(), folder);
  const walks = options.walks;
  const reusable = walks ? reusableWalks(walks, files) : new Set<string>();
  const reused = new Set<KindVersion>();
  let requested = new Set<string>();
  const index = walks ? recordingIndex(files, () => requested) : files;
  const ctx = createContext({ files: index, root, optionalByDefault: (file) => folderOf.get(file.getFilePath())?.optionalByDefault ?? false });
  // Reused schemas keep the locations their walk noted.
  if (walks) ctx.locations = walks.locations;

  const kinds: KindVersion[] = [];
  for (const [path, file] of files) {
    const folder = folderOf.get(path);
    const kept = walks?.files.get(path);
    if (kept && reusable.has(path)) {
      const again = kept.kinds.map((k) => ({ ...k, folder: folder ?? k.folder }));
      for (const k of again) reused.add(k);
      kinds.push(...again);
      ctx.errors.push(...kept.errors);
      continue;
    }
    requested = new Set();
    const errorsBefore = ctx.errors.length;
    const kindsBefore = kinds.length;
    const declarations = fileDeclarations(file);
    for (const decl of declarations.interfaces) {
      if (!isRootInterface(decl) || isListInterface(decl)) continue;
      if (!folder) {
        fail(ctx, decl.getNameNode(), `Kind ${decl.getName()} is outside a version folder`, `move it next to a groupversion_info.ts (in ${displayPath(ctx, file).replace(/\/[^/]*$/, '')} there is none)`);
        continue;
      }
      if (folder.skip) continue;
      const walked = walkKind(ctx, decl);
      if (!walked) continue;
      if (folder.skipDescriptions) dropDescriptions(walked.schema);
      // kubebuilder's multiversion tutorial writes +versionName on its Kinds; controller-gen
      // takes the version from the package, so opgen only checks the two agree.
      for (const marker of walked.markers.filter((m) => m.canonical === 'versionName' && m.value !== folder.version)) {
        ctx.errors.push(
          new UserError(`${marker.text} disagrees with the version of its folder, ${folder.version}`, marker.location, 'the version comes from groupversion_info.ts; remove the marker or make it agree'),
        );
      }
      kinds.push({ ...walked, group: folder.group, version: folder.version, folder });
    }
    for (const alias of declarations.aliases) {
      if (isRootDeclaration(alias)) {
        fail(ctx, alias.getNameNode(), `Kind ${alias.getName()} must be an interface`, `write it as export interface ${alias.getName()} { metadata?: ObjectMeta; … }`);
      }
    }
    if (folder && !folder.skip) {
      checkOtherDeclarations(ctx, file);
      if (file !== folder.info) ctx.errors.push(...strayMarkers(file, displayPath(ctx, file)));
    }
    ctx.errors.push(...checkMarkerValues(ctx.checks.splice(0)));
    if (walks) keepWalk(walks, path, { file, kinds: kinds.slice(kindsBefore), errors: ctx.errors.slice(errorsBefore), requested });
  }
  if (walks) for (const path of walks.files.keys()) if (!files.has(path)) walks.files.delete(path);
  errors.push(...ctx.errors);

  const crds = assembleCrds(kinds, { project: options.project, generatorVersion: options.generatorVersion }, errors);
  checkKindHandles(root, crds, errors);
  // The API server's rules are checked once the types themselves are right, so that one
  // mistake is not reported twice.
  const typesOk = errors.length === 0;
  const unchanged = walks ? unchangedCrds(walks, crds, kinds, reused) : new Set<AssembledCrd>();
  for (const crd of crds) {
    for (const version of crd.crd.spec.versions) {
      const schema = version.schema.openAPIV3Schema;
      const source = crd.sources.get(version.name)!;
      // An unchanged CRD passed these checks in the last build.
      const problems = typesOk && !unchanged.has(crd) ? [...checkStructural(schema), ...checkDefaults(schema)] : [];
      // CEL types are checked once the schema itself is sound: they are read from it.
      if (typesOk && !unchanged.has(crd) && problems.length === 0) {
        for (const problem of celTypeProblems(schema)) {
          const expression = problem.field === 'messageExpression' ? problem.rule.messageExpression! : problem.field === 'fieldPath' ? problem.rule.fieldPath! : problem.rule.rule;
          const node = locatePath(schema, problem.path, ctx.locations) ?? source.location;
          const where = problem.path ? `${problem.path}: ` : '';
          errors.push(
            new UserError(
              `${crd.kind} ${version.name}: ${where}invalid CEL ${problem.field} ${JSON.stringify(expression)}: ${problem.message}`,
              // A fieldPath is found by its argument: a bare path (`name`) is in many marker lines.
              (problem.field === 'fieldPath' ? locateExpression(root, texts, `fieldPath="${expression}"`, 'fieldPath="'.length + 1, node) : locateExpression(root, texts, expression, problem.column, node)) ?? node,
              problem.hint ?? 'the API server would reject this CRD',
            ),
          );
        }
      }
      for (const problem of problems) {
        const where = problem.path ? `${problem.path}: ` : '';
        errors.push(
          new UserError(
            `${crd.kind} ${version.name}: ${where}${problem.message}`,
            locatePath(schema, problem.path, ctx.locations) ?? source.location,
            'the API server would reject this CRD',
          ),
        );
      }
      if (options.maxDescriptionLength !== undefined) limitDescriptions(schema, options.maxDescriptionLength);
    }
  }
  if (walks) rememberCrds(walks, kinds, errors.length === 0);
  return { crds: errors.length ? [] : crds, errors: sortErrors(errors), unchanged, locations: ctx.locations };
}

/**
 * Walks the exported, non-generic types no Kind uses, so that their markers are checked
 * too; those a Kind uses come from the cache.
 */
function checkOtherDeclarations(ctx: WalkContext, file: SourceFile): void {
  const { interfaces, aliases, enums } = fileDeclarations(file);
  const decls = [...interfaces, ...aliases, ...enums];
  for (const decl of decls) {
    if (!decl.isExported()) continue;
    if (!Node.isEnumDeclaration(decl) && decl.getTypeParameters().length) continue;
    if (Node.isInterfaceDeclaration(decl) && isRootInterface(decl)) continue;
    checkDeclaration(ctx, decl);
  }
}

/** Errors in file order, then line and column, so output is stable and easy to follow. */
export function sortErrors(errors: UserError[]): UserError[] {
  const seen = new Set<string>();
  return errors
    .filter((e) => {
      const key = `${e.location?.file}:${e.location?.line}:${e.location?.column}:${e.message}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .sort(
      (a, b) =>
        (a.location?.file ?? '').localeCompare(b.location?.file ?? '') ||
        (a.location?.line ?? 0) - (b.location?.line ?? 0) ||
        (a.location?.column ?? 0) - (b.location?.column ?? 0),
    );
}
