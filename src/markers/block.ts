import { UserError } from '../errors.js';
import type { CommentLine } from './comments.js';
import { type Marker, parseMarker } from './parse.js';
import { isSchemaTag, parseTag } from './tags.js';

/** What a comment block says: its markers (both spellings) and its description. */
export interface CommentBlock {
  markers: Marker[];
  description: string;
  errors: UserError[];
}

/**
 * Splits comment lines into markers and description. Markers are lines starting with `+`
 * and JSDoc schema tags; the description is the rest of the doc comment (not of the
 * detached group above it), without `TODO` lines and without anything after a line
 * starting with `---` (outside fenced code blocks); indentation past the comment's margin
 * is kept, as Go keeps it.
 */
export function readComment(lines: readonly CommentLine[], file: string): CommentBlock {
  const markers: Marker[] = [];
  const errors: UserError[] = [];
  const text: string[] = [];
  let described = true;
  let inCode = false;
  for (const line of lines) {
    const location = { file, line: line.line, column: line.column };
    if (/^\+[A-Za-z]/.test(line.text)) {
      try {
        markers.push(parseMarker(line.text.slice(1), location));
      } catch (error) {
        if (!(error instanceof UserError)) throw error;
        errors.push(error);
      }
      continue;
    }
    const tag = /^@([A-Za-z]+)(?:\s+(.*))?$/.exec(line.text);
    if (tag) {
      try {
        const marker = parseTag(tag[1]!, (tag[2] ?? '').trim(), location);
        if (marker) {
          markers.push(marker);
          continue;
        }
      } catch (error) {
        if (!(error instanceof UserError)) throw error;
        errors.push(error);
        continue;
      }
    }
    // The group one blank line above the doc comment gives markers, never description:
    // the rest of it is free text, like any comment no declaration takes.
    if (line.detached) continue;
    const buried = /(?:^|\s)(\+(?:kubebuilder|k8s):\S*|@[A-Za-z]+)/.exec(line.text);
    if (buried && (buried[1]!.startsWith('+') || isSchemaTag(buried[1]!.slice(1)))) {
      errors.push(
        new UserError(`${buried[1]} is inside the text of a comment line, so it has no effect`, { ...location, column: line.column + buried.index + buried[0].indexOf(buried[1]!) }, 'start a new comment line with it'),
      );
    }
    // As controller-gen: `TODO` lines and everything from a `---` line on are notes, except
    // inside a fenced code block.
    const prose = line.prose ?? line.text;
    if (prose.startsWith('```') || prose.startsWith('~~~')) inCode = !inCode;
    if (!inCode && prose.startsWith('---')) described = false;
    if (described && (inCode || !prose.startsWith('TODO'))) text.push(prose);
  }
  return { markers, description: tidy(text), errors };
}

function tidy(lines: string[]): string {
  // Go's comment text: runs of blank lines become one, none at either end.
  return lines.join('\n').replace(/\n{3,}/g, '\n\n').replace(/^\n+|\n+$/g, '');
}
