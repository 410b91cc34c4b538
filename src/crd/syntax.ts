import { relative } from 'node:path';
import { ts, type SourceFile } from 'ts-morph';
import { UserError } from '../errors.js';

/**
 * TypeScript's parse errors in the API files, located. The parser recovers from them, so
 * without this check a stray `*\/` in a comment would silently drop the fields after it.
 */
export function syntaxErrors(root: string, files: ReadonlyMap<string, SourceFile>): UserError[] {
  const first = files.values().next().value;
  if (!first) return [];
  const program = first.getProject().getProgram();
  // After the first parse error the parser is guessing, so later ones are mostly echoes of it.
  return [...files.values()].flatMap((file) =>
    program.getSyntacticDiagnostics(file).slice(0, 1).map((diagnostic) => {
      const start = diagnostic.getStart() ?? 0;
      const { line, column } = file.getLineAndColumnAtPos(start);
      const message = ts.flattenDiagnosticMessageText(diagnostic.compilerObject.messageText, ' ');
      return new UserError(message, { file: relative(root, file.getFilePath()), line, column });
    }),
  );
}
