/**
 * Finds what a type name in an API file refers to, from the import declarations alone: a
 * declaration in one of the project's API files, a type of `@opgen/runtime/api`, a
 * Kubernetes model of `@kubernetes/client-node`, or something opgen cannot read. No module
 * resolution and no type checker: the packages need not even be installed.
 *
 * @module
 */
import { dirname, join, normalize } from 'node:path';
import type { EnumDeclaration, InterfaceDeclaration, SourceFile, TypeAliasDeclaration } from 'ts-morph';
import { Node } from '../ts-morph.js';

export type Declaration = InterfaceDeclaration | TypeAliasDeclaration | EnumDeclaration;

export type Resolved =
  | { kind: 'decl'; decl: Declaration }
  | { kind: 'runtime'; name: string }
  | { kind: 'client'; name: string }
  | { kind: 'external'; module: string; name: string }
  | { kind: 'missing' };

/** The module API files import opgen's special types from. */
export const runtimeApiModules = new Set(['@opgen/runtime/api', '@opgen/runtime']);
/** The module whose `V1…` models map to the pinned Kubernetes OpenAPI schemas. */
export const clientModule = '@kubernetes/client-node';

/** Looks source files up by absolute path. */
export type FileIndex = ReadonlyMap<string, SourceFile>;

/** What `name` (or `namespace.name`) means in `file`. */
export function resolveName(file: SourceFile, name: string, files: FileIndex): Resolved {
  const dot = name.indexOf('.');
  if (dot > 0) return resolveQualified(file, name.slice(0, dot), name.slice(dot + 1), files);
  return resolveLocal(file, name, files, new Set());
}

/** A file's top-level declarations of each sort, in file order. */
export interface FileDeclarations {
  interfaces: InterfaceDeclaration[];
  aliases: TypeAliasDeclaration[];
  enums: EnumDeclaration[];
  /** The interface called `name`, else the alias, else the enum; the first of each. */
  byName: Map<string, Declaration>;
}

const declarationsByFile = new WeakMap<SourceFile, FileDeclarations>();

/**
 * The file's declarations, read once per file: ts-morph's getInterfaces(), getTypeAliases()
 * and getEnums() each go over every statement again, and the build asks for them several times.
 */
export function fileDeclarations(file: SourceFile): FileDeclarations {
  let found = declarationsByFile.get(file);
  if (found) return found;
  found = { interfaces: [], aliases: [], enums: [], byName: new Map() };
  for (const statement of file.getStatements()) {
    if (Node.isInterfaceDeclaration(statement)) found.interfaces.push(statement);
    else if (Node.isTypeAliasDeclaration(statement)) found.aliases.push(statement);
    else if (Node.isEnumDeclaration(statement)) found.enums.push(statement);
  }
  for (const decl of [...found.interfaces, ...found.aliases, ...found.enums]) {
    if (!found.byName.has(decl.getName())) found.byName.set(decl.getName(), decl);
  }
  declarationsByFile.set(file, found);
  return found;
}

function localDeclaration(file: SourceFile, name: string): Declaration | undefined {
  return fileDeclarations(file).byName.get(name);
}

/** A file's imports by the name they are used under: the module and the name it exports. */
interface Imports {
  named: Map<string, { module: string; name: string }>;
  /** `import * as ns from '…'`: namespace → module. */
  namespaces: Map<string, string>;
}

const importsByFile = new WeakMap<SourceFile, Imports>();

/**
 * The file's imports, indexed once per file: every type reference of a walk is resolved
 * through them, and reading them through ts-morph wraps all of the file's statements again.
 * The first import of a name wins, as the loops over the declarations did.
 */
function importsOf(file: SourceFile): Imports {
  let imports = importsByFile.get(file);
  if (imports) return imports;
  imports = { named: new Map(), namespaces: new Map() };
  for (const imp of file.getImportDeclarations()) {
    const module = imp.getModuleSpecifierValue();
    for (const named of imp.getNamedImports()) {
      const local = named.getAliasNode()?.getText() ?? named.getName();
      if (!imports.named.has(local)) imports.named.set(local, { module, name: named.getName() });
    }
    const namespace = imp.getNamespaceImport()?.getText();
    if (namespace !== undefined && !imports.namespaces.has(namespace)) imports.namespaces.set(namespace, module);
  }
  importsByFile.set(file, imports);
  return imports;
}

function resolveLocal(file: SourceFile, name: string, files: FileIndex, seen: Set<string>): Resolved {
  const decl = localDeclaration(file, name);
  if (decl) return { kind: 'decl', decl };
  const imported = importsOf(file).named.get(name);
  return imported ? fromModule(file, imported.module, imported.name, files, seen) : { kind: 'missing' };
}

function resolveQualified(file: SourceFile, namespace: string, name: string, files: FileIndex): Resolved {
  const module = importsOf(file).namespaces.get(namespace);
  return module === undefined ? { kind: 'missing' } : fromModule(file, module, name, files, new Set());
}

function fromModule(file: SourceFile, module: string, name: string, files: FileIndex, seen: Set<string>): Resolved {
  if (runtimeApiModules.has(module)) return { kind: 'runtime', name };
  if (module === clientModule) return { kind: 'client', name };
  if (!module.startsWith('.')) return { kind: 'external', module, name };
  const target = findFile(dirname(file.getFilePath()), module, files);
  if (!target) return { kind: 'external', module, name };
  return resolveExport(target, name, files, seen);
}

function findFile(dir: string, module: string, files: FileIndex): SourceFile | undefined {
  const base = normalize(join(dir, module)).replace(/\.(js|ts|mjs|mts)$/, '');
  return files.get(`${base}.ts`) ?? files.get(`${base}.mts`) ?? files.get(join(base, 'index.ts'));
}

/** What `name`, exported by `file`, is: its own declaration or a re-export. */
function resolveExport(file: SourceFile, name: string, files: FileIndex, seen: Set<string>): Resolved {
  const key = `${file.getFilePath()}#${name}`;
  if (seen.has(key)) return { kind: 'missing' };
  seen.add(key);
  const decl = localDeclaration(file, name);
  if (decl) return { kind: 'decl', decl };
  for (const exp of file.getExportDeclarations()) {
    const module = exp.getModuleSpecifierValue();
    const named = exp.getNamedExports();
    if (named.length === 0 && module) {
      const hit = fromModule(file, module, name, files, seen);
      if (hit.kind !== 'missing') return hit;
      continue;
    }
    for (const spec of named) {
      const exported = spec.getAliasNode()?.getText() ?? spec.getName();
      if (exported !== name) continue;
      return module ? fromModule(file, module, spec.getName(), files, seen) : resolveLocal(file, spec.getName(), files, seen);
    }
  }
  return { kind: 'missing' };
}
