import { diffArrays } from 'diff';

/** The names a conflict's markers give its three sides. */
export interface MergeLabels {
  ours: string;
  base: string;
  theirs: string;
}

export interface MergeResult {
  text: string;
  /** How many regions both sides changed differently, each between diff3 markers in `text`. */
  conflicts: number;
}

/** A run of base lines `[start, end)` that one side replaced by `lines`. */
interface Hunk {
  start: number;
  end: number;
  lines: string[];
}

/**
 * Three-way merge of text by lines, as `git merge-file --diff3`: a region only one side
 * changed takes that side's lines, a region both changed alike takes them once, and a region
 * both changed differently is written between `<<<<<<<`, `|||||||`, `=======` and `>>>>>>>`
 * markers with all three versions. Plain code, so `opgen upgrade` needs no git.
 */
export function merge3(ours: string, base: string, theirs: string, labels: MergeLabels): MergeResult {
  const baseLines = splitLines(base);
  const ourHunks = hunks(baseLines, splitLines(ours));
  const theirHunks = hunks(baseLines, splitLines(theirs));
  const out: string[] = [];
  let conflicts = 0;
  let at = 0;
  for (const group of overlapping(ourHunks, theirHunks)) {
    out.push(...baseLines.slice(at, group.start));
    const original = baseLines.slice(group.start, group.end);
    const mine = group.ours.length ? replay(baseLines, group.start, group.end, group.ours) : original;
    const yours = group.theirs.length ? replay(baseLines, group.start, group.end, group.theirs) : original;
    if (!group.theirs.length || sameLines(mine, yours)) out.push(...mine);
    else if (!group.ours.length) out.push(...yours);
    else {
      conflicts += 1;
      out.push(
        `<<<<<<< ${labels.ours}\n`,
        ...terminated(mine),
        `||||||| ${labels.base}\n`,
        ...terminated(original),
        '=======\n',
        ...terminated(yours),
        `>>>>>>> ${labels.theirs}\n`,
      );
    }
    at = group.end;
  }
  out.push(...baseLines.slice(at));
  return { text: out.join(''), conflicts };
}

/** Lines with their line endings, so a last line without one stays without. */
function splitLines(text: string): string[] {
  return text === '' ? [] : text.split(/(?<=\n)/);
}

/** A side's lines inside a conflict end with a newline, so the marker after them starts a line. */
function terminated(lines: string[]): string[] {
  const last = lines.at(-1);
  return last === undefined || last.endsWith('\n') ? lines : [...lines.slice(0, -1), `${last}\n`];
}

function sameLines(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((line, i) => line === b[i]);
}

/** The regions of `base` that `other` changes. */
function hunks(base: string[], other: string[]): Hunk[] {
  const result: Hunk[] = [];
  let at = 0;
  let open: Hunk | undefined;
  for (const part of diffArrays(base, other)) {
    if (!part.added && !part.removed) {
      if (open) result.push(open);
      open = undefined;
      at += part.value.length;
      continue;
    }
    open ??= { start: at, end: at, lines: [] };
    if (part.removed) {
      at += part.value.length;
      open.end = at;
    } else open.lines.push(...part.value);
  }
  if (open) result.push(open);
  return result;
}

interface Group {
  start: number;
  end: number;
  ours: Hunk[];
  theirs: Hunk[];
}

/**
 * Hunks of both sides gathered into regions that do not touch each other. As in git, changes
 * to adjacent lines touch: a line both sides' edits border may belong to either, so its
 * merge is the user's call.
 */
function overlapping(ours: Hunk[], theirs: Hunk[]): Group[] {
  const all = [...ours.map((h) => ({ h, mine: true })), ...theirs.map((h) => ({ h, mine: false }))].sort(
    (a, b) => a.h.start - b.h.start || a.h.end - b.h.end,
  );
  const groups: Group[] = [];
  for (const { h, mine } of all) {
    const last = groups.at(-1);
    const touches = last !== undefined && h.start <= last.end;
    const group = touches ? last : { start: h.start, end: h.end, ours: [], theirs: [] };
    if (!touches) groups.push(group);
    group.end = Math.max(group.end, h.end);
    (mine ? group.ours : group.theirs).push(h);
  }
  return groups;
}

/** Base lines `[start, end)` with one side's hunks inside them applied. */
function replay(base: string[], start: number, end: number, side: Hunk[]): string[] {
  const out: string[] = [];
  let at = start;
  for (const hunk of side) {
    out.push(...base.slice(at, hunk.start), ...hunk.lines);
    at = hunk.end;
  }
  out.push(...base.slice(at, end));
  return out;
}
