import type { SourceFile } from 'ts-morph';
import { UserError } from '../errors.js';
import { locate } from '../markers/comments.js';
import { displayPath } from '../schema/context.js';
import { type Diagnostic, ts } from '../ts-morph.js';

/**
 * TypeScript's parse errors in the API files, located. The parser recovers from them, so
 * without this check a stray `*\/` in a comment would silently drop the fields after it.
 */
export function syntaxErrors(root: string, files: ReadonlyMap<string, SourceFile>): UserError[] {
  // After the first parse error the parser is guessing, so later ones are mostly echoes of it.
  return [...files.values()].flatMap((file) =>
    parseDiagnostics(file).slice(0, 1).map((diagnostic) => {
      const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ');
      return new UserError(message, { file: displayPath({ root }, file), ...locate(file, diagnostic.start ?? 0) });
    }),
  );
}

/**
 * The errors the parser recorded in the file: for a .ts file exactly what
 * `program.getSyntacticDiagnostics` returns, without building a program (which costs more
 * than parsing did). The field is TypeScript-internal, so its absence is an error, never
 * "no syntax errors".
 */
function parseDiagnostics(file: SourceFile): readonly Diagnostic[] {
  const recorded = (file.compilerNode as { parseDiagnostics?: readonly Diagnostic[] }).parseDiagnostics;
  if (!recorded) throw new Error(`TypeScript ${ts.version} records no parse errors on source files; opgen cannot check ${file.getFilePath()}`);
  return recorded;
}
