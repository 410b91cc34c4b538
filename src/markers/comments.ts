/**
 * The comment text that belongs to a declaration: the JSDoc blocks and `//` lines directly
 * above it (no blank line in between), each line with its place in the file.
 *
 * @module
 */
import type { Node, SourceFile } from 'ts-morph';
import { type CommentRange, ts } from '../ts-morph.js';

/** One line of comment text, stripped of `//`, `/**`, `*` and `*\/`; `line`/`column` are 1-based. */
export interface CommentLine {
  text: string;
  line: number;
  column: number;
}

const lineStarts = new WeakMap<SourceFile, number[]>();

/** 1-based line and column of a position in a file. */
export function locate(sourceFile: SourceFile, pos: number): { line: number; column: number } {
  let starts = lineStarts.get(sourceFile);
  if (!starts) {
    starts = [0];
    const text = sourceFile.getFullText();
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
    lineStarts.set(sourceFile, starts);
  }
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= pos) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, column: pos - starts[lo]! + 1 };
}

/** The comment lines directly above `node`. */
export function leadingCommentLines(node: Node): CommentLine[] {
  const sourceFile = node.getSourceFile();
  const text = sourceFile.getFullText();
  const ranges = ts.getLeadingCommentRanges(text, node.getFullStart()) ?? [];
  const kept: CommentRange[] = [];
  let next = node.getStart();
  for (let i = ranges.length - 1; i >= 0; i--) {
    const range = ranges[i]!;
    const gap = text.slice(range.end, next);
    if ((gap.match(/\n/g) ?? []).length > 1) break;
    kept.unshift(range);
    next = range.pos;
  }
  return kept.flatMap((range) => rangeLines(sourceFile, text, range));
}

/** Every comment line of a file (a `groupversion_info.ts` is all file-level comments). */
export function allCommentLines(sourceFile: SourceFile): CommentLine[] {
  const text = sourceFile.getFullText();
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard, text);
  const lines: CommentLine[] = [];
  for (let token = scanner.scan(); token !== ts.SyntaxKind.EndOfFileToken; token = scanner.scan()) {
    if (token === ts.SyntaxKind.SingleLineCommentTrivia || token === ts.SyntaxKind.MultiLineCommentTrivia) {
      lines.push(...rangeLines(sourceFile, text, { pos: scanner.getTokenStart(), end: scanner.getTokenEnd(), kind: token }));
    }
  }
  return lines;
}

function rangeLines(sourceFile: SourceFile, text: string, range: CommentRange): CommentLine[] {
  if (range.kind === ts.SyntaxKind.SingleLineCommentTrivia) {
    const body = text.slice(range.pos + 2, range.end);
    const lead = body.length - body.trimStart().length;
    return [{ text: body.trim(), ...locate(sourceFile, range.pos + 2 + lead) }];
  }
  const lines: CommentLine[] = [];
  let offset = range.pos + 2;
  const inner = text.slice(offset, range.end - 2);
  for (const raw of inner.split('\n')) {
    const m = /^\s*\**\s?/.exec(raw)!;
    let start = m[0].length;
    while (start < raw.length && /\s/.test(raw[start]!)) start++;
    const content = raw.slice(start).trimEnd();
    lines.push({ text: content, ...locate(sourceFile, offset + start) });
    offset += raw.length + 1;
  }
  // `/** text */` on one line and the blank first/last lines of a block.
  while (lines.length && lines[0]!.text === '') lines.shift();
  while (lines.length && lines[lines.length - 1]!.text === '') lines.pop();
  return lines;
}
