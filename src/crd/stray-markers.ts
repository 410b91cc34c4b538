/**
 * Markers no declaration takes. controller-gen gives a type or field the markers of its doc
 * comment and of the group one blank line above it; a marker anywhere else in an API file
 * (inside a body after the last property, after the last declaration, two blank lines
 * away, on the same line as a property) would be lost without a word, so it is an error.
 *
 * @module
 */
import type { SourceFile } from 'ts-morph';
import { UserError } from '../errors.js';
import { commentRangeLines, fileCommentRanges, takenCommentStarts } from '../markers/comments.js';
import { findMarkerDef } from '../markers/parse.js';

/** Markers read from anywhere under src/ by the RBAC and webhook scan. */
const packageWide = /^kubebuilder:(rbac|webhook|webhookconfiguration)(:|=|$)/;

/** Errors for the `+` markers of an API file (shown as `file`) that no declaration takes. */
export function strayMarkers(sourceFile: SourceFile, file: string): UserError[] {
  // Most files have no marker outside doc comments; skip the syntax walk for those without any.
  if (!/(\/\/|\*)[ \t]*\+[A-Za-z]/.test(sourceFile.getFullText())) return [];
  const taken = takenCommentStarts(sourceFile);
  const errors: UserError[] = [];
  for (const range of fileCommentRanges(sourceFile)) {
    if (taken.has(range.pos)) continue;
    for (const line of commentRangeLines(sourceFile, range)) {
      if (!/^\+[A-Za-z]/.test(line.text)) continue;
      const text = line.text.slice(1);
      const def = findMarkerDef(text);
      // Other generators' markers mean nothing to opgen wherever they are.
      if (packageWide.test(text) || def?.ignored) continue;
      errors.push(
        new UserError(
          `+${def?.name ?? text.split('=')[0]} belongs to no declaration, so it has no effect`,
          { file, line: line.line, column: line.column },
          'put it in the comment right above a type or property, or in the group one blank line above that comment',
        ),
      );
    }
  }
  return errors;
}
