/**
 * The comment text that belongs to a declaration, associated as controller-gen does it
 * (the doc comment and the group one blank line above it), each line with its place in
 * the file; and every comment of a file, to find markers no declaration takes.
 *
 * @module
 */
import type { Node, SourceFile, ts as Ts } from 'ts-morph';
import { type CommentRange, ts } from '../ts-morph.js';

/** One line of comment text, stripped of `//`, `/**`, `*` and `*\/`; `line`/`column` are 1-based. */
export interface CommentLine {
  text: string;
  line: number;
  column: number;
  /** The line as a description shows it: like `text`, but keeping indentation past the comment's margin. */
  prose?: string;
  /** From the group one blank line above the doc comment: markers only, no description. */
  detached?: boolean;
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

/**
 * The comment ranges a declaration takes, as controller-gen associates them: its doc
 * comment (the group of comments directly above it, no blank line in between) and the
 * group above that, separated from it (or, without a doc comment, from the declaration)
 * by one blank line. kubebuilder lays Kinds out that way: root markers, a blank line, the
 * doc comment. The detached group gives markers only, never description.
 */
export function declarationCommentRanges(node: Node): { doc: CommentRange[]; detached: CommentRange[] } {
  return commentsAbove(node.getSourceFile().getFullText(), node.getFullStart(), node.getStart());
}

function commentsAbove(text: string, fullStart: number, start: number): { doc: CommentRange[]; detached: CommentRange[] } {
  const ranges = ts.getLeadingCommentRanges(text, fullStart) ?? [];
  const groups: CommentRange[][] = [];
  // gaps[i]: newlines between group i and what follows it (the next group or the node).
  const gaps: number[] = [];
  let next = start;
  for (let r = ranges.length - 1; r >= 0; r--) {
    const range = ranges[r]!;
    let newlines = 0;
    for (let i = range.end; i < next; i++) if (text.charCodeAt(i) === 10) newlines++;
    if (newlines > 1 || !groups.length) {
      groups.unshift([range]);
      gaps.unshift(newlines);
    } else groups[0]!.unshift(range);
    next = range.pos;
  }
  const last = groups.length - 1;
  if (last < 0) return { doc: [], detached: [] };
  if (gaps[last]! <= 1) {
    const detached = last > 0 && gaps[last - 1] === 2 ? groups[last - 1]! : [];
    return { doc: groups[last]!, detached };
  }
  return { doc: [], detached: gaps[last] === 2 ? groups[last]! : [] };
}

const takesComments = (node: Ts.Node) =>
  ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node) || ts.isEnumDeclaration(node) || ts.isPropertySignature(node);

/**
 * True when `pos`, inside a comment, is in a range {@link takenCommentRanges} would list.
 * Only the nodes around `pos` are looked at (a node takes comments between its full start
 * and its start): a file's markers are checked this way much faster than by going over
 * every node of it.
 */
export function isTakenComment(sourceFile: SourceFile, pos: number): boolean {
  const compiled = sourceFile.compilerNode;
  const text = sourceFile.getFullText();
  for (let node: Ts.Node | undefined = compiled; node; node = childAt(node, pos)) {
    if (!takesComments(node)) continue;
    const start = node.getStart(compiled);
    if (pos >= start) continue;
    const { doc, detached } = commentsAbove(text, node.pos, start);
    if (doc.some((r) => r.pos <= pos && pos < r.end) || detached.some((r) => r.pos <= pos && pos < r.end)) return true;
  }
  return false;
}

/** The child of `node` whose full range holds `pos` (children do not overlap). */
function childAt(node: Ts.Node, pos: number): Ts.Node | undefined {
  const holds = (child: Ts.Node) => (child.pos <= pos && pos < child.end ? child : undefined);
  return ts.forEachChild(node, holds, (list) => (list.pos <= pos && pos < list.end ? list.find(holds) : undefined));
}

/**
 * The comment ranges that the declarations of a file take: types, enums and properties
 * (those opgen reads markers from), each as {@link declarationCommentRanges}; in file order.
 */
export function takenCommentRanges(sourceFile: SourceFile): CommentRange[] {
  const text = sourceFile.getFullText();
  const taken: CommentRange[] = [];
  const visit = (node: Ts.Node) => {
    if (takesComments(node)) {
      const { doc, detached } = commentsAbove(text, node.pos, node.getStart(sourceFile.compilerNode));
      taken.push(...detached, ...doc);
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile.compilerNode);
  return taken.sort((a, b) => a.pos - b.pos);
}

/**
 * The comment lines that belong to `node` (see {@link declarationCommentRanges}); lines of
 * the detached group are marked `detached`.
 */
export function leadingCommentLines(node: Node): CommentLine[] {
  return nodeCommentLines(node.getSourceFile(), node.compilerNode);
}

/**
 * {@link leadingCommentLines} of a TypeScript node of `sourceFile`. The walker passes
 * TypeScript's nodes: wrapping each property in a ts-morph node only to read its comment
 * costs measurably in a large API.
 */
export function nodeCommentLines(sourceFile: SourceFile, node: Ts.Node): CommentLine[] {
  const text = sourceFile.getFullText();
  const { doc, detached } = commentsAbove(text, node.pos, node.getStart(sourceFile.compilerNode));
  const lines: CommentLine[] = [];
  for (const range of detached) for (const line of rangeLines(sourceFile, text, range)) lines.push({ ...line, detached: true });
  for (const range of doc) lines.push(...rangeLines(sourceFile, text, range));
  return lines;
}

/**
 * True when the comments `node` takes contain `needle`: a cheap first look before their
 * lines are read, for a question asked of every declaration.
 */
export function commentsMention(sourceFile: SourceFile, node: Ts.Node, needle: string): boolean {
  const text = sourceFile.getFullText();
  const { doc, detached } = commentsAbove(text, node.pos, node.getStart(sourceFile.compilerNode));
  const first = detached[0] ?? doc[0];
  const last = doc[doc.length - 1] ?? detached[detached.length - 1];
  if (!first || !last) return false;
  const at = text.indexOf(needle, first.pos);
  return at >= 0 && at < last.end;
}

/**
 * Every comment range of a file, in order, read from the syntax tree so that `//` inside
 * strings and templates is never taken for a comment. Comments are trivia between tokens;
 * the trivia at each node's and node list's start and end covers every place a comment can
 * stand in a declaration, without materialising the tokens (which cost about a quarter of
 * the build in a 100-kind API).
 */
export function fileCommentRanges(sourceFile: SourceFile): CommentRange[] {
  const text = sourceFile.getFullText();
  const found = new Map<number, CommentRange>();
  const at = (pos: number) => {
    for (const range of ts.getLeadingCommentRanges(text, pos) ?? []) found.set(range.pos, range);
    for (const range of ts.getTrailingCommentRanges(text, pos) ?? []) found.set(range.pos, range);
  };
  const visitList = (list: Ts.NodeArray<Ts.Node>) => {
    at(list.pos);
    at(list.end);
    list.forEach(visit);
  };
  const visit = (node: Ts.Node) => {
    at(node.pos);
    at(node.end);
    ts.forEachChild(node, visit, visitList);
  };
  at(0);
  visit(sourceFile.compilerNode);
  return [...found.values()].sort((a, b) => a.pos - b.pos);
}

/** The lines of one comment range. */
export function commentRangeLines(sourceFile: SourceFile, range: CommentRange): CommentLine[] {
  return rangeLines(sourceFile, sourceFile.getFullText(), range);
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
    // Go drops the one space after `//` and keeps any further indentation.
    const prose = (body.startsWith(' ') ? body.slice(1) : body).trimEnd();
    return [{ text: body.trim(), prose, ...locate(sourceFile, range.pos + 2 + lead) }];
  }
  const lines: CommentLine[] = [];
  let offset = range.pos + 2;
  const inner = text.slice(offset, range.end - 2);
  const jsDoc = inner.startsWith('*');
  for (const raw of inner.split('\n')) {
    const m = /^\s*\**\s?/.exec(raw)!;
    let start = m[0].length;
    while (start < raw.length && /\s/.test(raw[start]!)) start++;
    const content = raw.slice(start).trimEnd();
    // In JSDoc, ` * ` is the margin and further indentation is the text's, as after Go's `//`;
    // Go trims the lines of a plain `/* */` block.
    const starred = jsDoc && /^\s*\*/.test(raw);
    const prose = starred ? raw.slice(m[0].length).trimEnd() : content;
    lines.push({ text: content, prose, ...locate(sourceFile, offset + start) });
    offset += raw.length + 1;
  }
  // `/** text */` on one line and the blank first/last lines of a block.
  while (lines.length && lines[0]!.text === '') lines.shift();
  while (lines.length && lines[lines.length - 1]!.text === '') lines.pop();
  return lines;
}
