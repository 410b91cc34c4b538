import type { SourceFile } from 'ts-morph';
import { UserError } from '../../errors.js';
import { Node, Project, SyntaxKind } from '../../ts-morph.js';

/** The comment line in src/main.ts above which `opgen create api` registers controllers. */
export const controllerMarker = 'opgen:scaffold:controllers';

export interface ControllerRegistration {
  /** The exported setup function, e.g. `setupDemoVolumeController`. */
  setupFunction: string;
  /** Its module as main.ts imports it, e.g. `./controllers/demovolume_controller.js`. */
  module: string;
  /** The local name to import it as when `setupFunction` is already taken (same kind in another group). */
  alias: string;
  /** What the call passes; default `mgr`. */
  args?: string;
}

/**
 * Returns `text` (the source of src/main.ts) with the controller imported and its setup
 * called on `mgr` just above the scaffold marker. Idempotent: an import or call that is
 * already there is kept, never repeated. Everything else in the file stays byte for byte,
 * so the user's edits survive; ts-morph only tells where to insert.
 */
export function registerController(text: string, registration: ControllerRegistration, file = 'src/main.ts'): string {
  const source = new Project({ useInMemoryFileSystem: true }).createSourceFile('main.ts', text);
  const edits: { at: number; insert: string }[] = [];

  let local = importedName(source, registration);
  if (local === undefined) {
    local = declaredNames(source).has(registration.setupFunction) ? registration.alias : registration.setupFunction;
    if (declaredNames(source).has(local)) {
      throw new UserError(`cannot import ${registration.setupFunction}: the name ${local} is already declared`, { file });
    }
    edits.push(importEdit(source, registration, local));
  }

  const called = source
    .getDescendantsOfKind(SyntaxKind.CallExpression)
    .some((call) => call.getExpression().getText() === local);
  if (!called) {
    const marker = findMarker(source);
    if (!marker) {
      throw new UserError(
        `no "// ${controllerMarker}" line to register ${local} at`,
        { file },
        `put that comment line where controllers are set up, before mgr.start()`,
      );
    }
    edits.push({ at: marker.lineStart, insert: `${marker.indent}${local}(${registration.args ?? 'mgr'});\n` });
  }

  let out = text;
  for (const edit of edits.sort((a, b) => b.at - a.at)) out = out.slice(0, edit.at) + edit.insert + out.slice(edit.at);
  return out;
}

/** The local name under which main.ts already imports the setup function, if it does. */
function importedName(source: SourceFile, registration: ControllerRegistration): string | undefined {
  for (const declaration of source.getImportDeclarations()) {
    if (withoutExtension(declaration.getModuleSpecifierValue()) !== withoutExtension(registration.module)) continue;
    const named = declaration.getNamedImports().find((n) => n.getName() === registration.setupFunction);
    if (named) return named.getAliasNode()?.getText() ?? named.getName();
  }
  return undefined;
}

function withoutExtension(specifier: string): string {
  return specifier.replace(/\.(js|ts|mjs|mts)$/, '');
}

function declaredNames(source: SourceFile): Set<string> {
  const names = new Set<string>();
  for (const declaration of source.getImportDeclarations()) {
    for (const named of declaration.getNamedImports()) names.add(named.getAliasNode()?.getText() ?? named.getName());
    const defaultImport = declaration.getDefaultImport();
    if (defaultImport) names.add(defaultImport.getText());
    const namespaceImport = declaration.getNamespaceImport();
    if (namespaceImport) names.add(namespaceImport.getText());
  }
  for (const name of [...source.getVariableDeclarations(), ...source.getFunctions(), ...source.getClasses()]) {
    const id = name.getName();
    if (id) names.add(id);
  }
  return names;
}

/** A new import line after the last import, in the file's own quote style. */
function importEdit(source: SourceFile, registration: ControllerRegistration, local: string) {
  const imports = source.getImportDeclarations();
  const quote = imports[0]?.getModuleSpecifier().getText().startsWith('"') ? '"' : "'";
  const binding = local === registration.setupFunction ? local : `${registration.setupFunction} as ${local}`;
  const line = `import { ${binding} } from ${quote}${registration.module}${quote};`;
  const last = imports.at(-1);
  if (last) return { at: last.getEnd(), insert: `\n${line}` };
  return { at: source.getStatementsWithComments()[0]?.getStart() ?? 0, insert: `${line}\n\n` };
}

/** The marker comment, found as a comment between statements at any depth of the file. */
function findMarker(source: SourceFile): { lineStart: number; indent: string } | undefined {
  const containers: Node[] = [source, ...source.getDescendantsOfKind(SyntaxKind.Block)];
  for (const container of containers) {
    if (!Node.isStatemented(container)) continue;
    for (const statement of container.getStatementsWithComments()) {
      if (!Node.isCommentStatement(statement)) continue;
      if (!new RegExp(`^//\\s*${controllerMarker}\\b`).test(statement.getText())) continue;
      const text = source.getFullText();
      const lineStart = text.lastIndexOf('\n', statement.getStart() - 1) + 1;
      return { lineStart, indent: text.slice(lineStart, statement.getStart()) };
    }
  }
  return undefined;
}
