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
import { commentRangeLines, fileCommentRanges, isTakenComment, takenCommentRanges } from '../markers/comments.js';
import { findMarkerDef } from '../markers/parse.js';

/** Markers read from anywhere under src/ by the RBAC and webhook scan. */
const packageWide = /^kubebuilder:(rbac|webhook|webhookconfiguration)(:|=|$)/;

/** Errors for the `+` markers of an API file (shown as `file`) that no declaration takes. */
export function strayMarkers(sourceFile: SourceFile, file: string): UserError[] {
  // Where a `+` starts a comment line (or follows `//`): a cheap first look. Most files have
  // every such line inside a declaration's comments, and then nothing more is read.
  const text = sourceFile.getFullText();
  const candidates = [...text.matchAll(/(?:\/\/|\/\*+|^[ \t]*\*+)[ \t]*\+[A-Za-z]/gm)].map((m) => m.index + m[0].length - 2);
  if (!candidates.length) return [];
  if (candidates.every((pos) => isTakenComment(sourceFile, pos))) return [];
  const taken = takenCommentRanges(sourceFile);
  const errors: UserError[] = [];
  for (const range of fileCommentRanges(sourceFile)) {
    if (taken.some((t) => t.pos === range.pos)) continue;
    for (const line of commentRangeLines(sourceFile, range)) {
      if (!/^\+[A-Za-z]/.test(line.text)) continue;
      const marker = line.text.slice(1);
      const def = findMarkerDef(marker);
      // Other generators' markers mean nothing to opgen wherever they are.
      if (packageWide.test(marker) || def?.ignored) continue;
      errors.push(
        new UserError(
          `+${def?.name ?? marker.split('=')[0]} belongs to no declaration, so it has no effect`,
          { file, line: line.line, column: line.column },
          'put it in the comment right above a type or property, or in the group one blank line above that comment',
        ),
      );
    }
  }
  return errors;
}
