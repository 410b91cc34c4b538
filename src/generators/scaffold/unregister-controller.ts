import { Project, SyntaxKind } from '../../ts-morph.js';
import type { ControllerRegistration } from './register-controller.js';

/**
 * Returns `text` (src/main.ts) without what {@link registerController} added for
 * `registration`: its import (or just its name, when the import brings in more) and the
 * statement calling it. Everything else stays byte for byte. Returns `text` unchanged when
 * the controller is not registered there.
 */
export function unregisterController(text: string, registration: Pick<ControllerRegistration, 'setupFunction' | 'module'>): string {
  const source = new Project({ useInMemoryFileSystem: true }).createSourceFile('main.ts', text);
  const cuts: { start: number; end: number }[] = [];
  let local: string | undefined;
  for (const declaration of source.getImportDeclarations()) {
    if (stem(declaration.getModuleSpecifierValue()) !== stem(registration.module)) continue;
    const named = declaration.getNamedImports().find((n) => n.getName() === registration.setupFunction);
    if (!named) continue;
    local = named.getAliasNode()?.getText() ?? named.getName();
    if (declaration.getNamedImports().length === 1 && !declaration.getDefaultImport() && !declaration.getNamespaceImport()) {
      cuts.push(wholeLines(text, declaration.getStart(), declaration.getEnd()));
    } else {
      const next = named.getNextSiblingIfKind(SyntaxKind.CommaToken);
      cuts.push({ start: named.getStart(), end: next ? next.getEnd() + (text[next.getEnd()] === ' ' ? 1 : 0) : named.getEnd() });
    }
  }
  if (local === undefined) return text;
  for (const call of source.getDescendantsOfKind(SyntaxKind.CallExpression)) {
    if (call.getExpression().getText() !== local) continue;
    const statement = call.getParentIfKind(SyntaxKind.ExpressionStatement);
    if (statement) cuts.push(wholeLines(text, statement.getStart(), statement.getEnd()));
  }
  let out = text;
  for (const cut of cuts.sort((a, b) => b.start - a.start)) out = out.slice(0, cut.start) + out.slice(cut.end);
  return out;
}

function stem(specifier: string): string {
  return specifier.replace(/\.(js|ts|mjs|mts)$/, '');
}

/** The span from the start of `start`'s line to after `end`'s line break, when nothing else is on those lines. */
function wholeLines(text: string, start: number, end: number): { start: number; end: number } {
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const lineEnd = text.indexOf('\n', end);
  const before = text.slice(lineStart, start);
  const after = text.slice(end, lineEnd === -1 ? text.length : lineEnd);
  if (before.trim() === '' && after.trim() === '') return { start: lineStart, end: lineEnd === -1 ? text.length : lineEnd + 1 };
  return { start, end };
}
