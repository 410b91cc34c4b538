/**
 * The unified diff kube-apiserver puts in some validation messages (apimachinery's
 * `diff.Diff`: both values as indented JSON, compared line by line as difflib's
 * SequenceMatcher does, three lines of context, no file header), so that a message such as
 * a PersistentVolumeClaim's "spec is immutable" reads exactly as the API server's.
 *
 * @module
 */

type Opcode = ['equal' | 'replace' | 'delete' | 'insert', number, number, number, number];

/** Matching blocks as difflib finds them: the longest common run, then the same on each side of it. */
function matchingBlocks(a: string[], b: string[]): Array<[number, number, number]> {
  const b2j = new Map<string, number[]>();
  b.forEach((line, j) => b2j.set(line, [...(b2j.get(line) ?? []), j]));
  const longest = (alo: number, ahi: number, blo: number, bhi: number): [number, number, number] => {
    let best: [number, number, number] = [alo, blo, 0];
    let lengths = new Map<number, number>();
    for (let i = alo; i < ahi; i++) {
      const next = new Map<number, number>();
      for (const j of b2j.get(a[i]!) ?? []) {
        if (j < blo) continue;
        if (j >= bhi) break;
        const k = (lengths.get(j - 1) ?? 0) + 1;
        next.set(j, k);
        if (k > best[2]) best = [i - k + 1, j - k + 1, k];
      }
      lengths = next;
    }
    return best;
  };
  const blocks: Array<[number, number, number]> = [];
  const queue: Array<[number, number, number, number]> = [[0, a.length, 0, b.length]];
  while (queue.length > 0) {
    const [alo, ahi, blo, bhi] = queue.pop()!;
    const [i, j, k] = longest(alo, ahi, blo, bhi);
    if (k === 0) continue;
    blocks.push([i, j, k]);
    if (alo < i && blo < j) queue.push([alo, i, blo, j]);
    if (i + k < ahi && j + k < bhi) queue.push([i + k, ahi, j + k, bhi]);
  }
  blocks.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  // Adjacent blocks are joined, as difflib does before answering.
  const joined: Array<[number, number, number]> = [];
  for (const block of blocks) {
    const last = joined[joined.length - 1];
    if (last && last[0] + last[2] === block[0] && last[1] + last[2] === block[1]) last[2] += block[2];
    else joined.push([...block]);
  }
  joined.push([a.length, b.length, 0]);
  return joined;
}

function opcodes(a: string[], b: string[]): Opcode[] {
  const out: Opcode[] = [];
  let i = 0;
  let j = 0;
  for (const [ai, bj, size] of matchingBlocks(a, b)) {
    const tag = i < ai && j < bj ? 'replace' : i < ai ? 'delete' : j < bj ? 'insert' : undefined;
    if (tag) out.push([tag, i, ai, j, bj]);
    i = ai + size;
    j = bj + size;
    if (size > 0) out.push(['equal', ai, i, bj, j]);
  }
  return out;
}

/** difflib's grouped opcodes: changes with up to `n` lines of context, nearby changes in one group. */
function groupedOpcodes(a: string[], b: string[], n: number): Opcode[][] {
  let codes = opcodes(a, b);
  if (codes.length === 0) codes = [['equal', 0, 1, 0, 1]];
  const first = codes[0]!;
  if (first[0] === 'equal') codes[0] = ['equal', Math.max(first[1], first[2] - n), first[2], Math.max(first[3], first[4] - n), first[4]];
  const last = codes[codes.length - 1]!;
  if (last[0] === 'equal') codes[codes.length - 1] = ['equal', last[1], Math.min(last[2], last[1] + n), last[3], Math.min(last[4], last[3] + n)];
  const groups: Opcode[][] = [];
  let group: Opcode[] = [];
  for (const [tag, i1, i2, j1, j2] of codes) {
    if (tag === 'equal' && i2 - i1 > 2 * n) {
      group.push([tag, i1, Math.min(i2, i1 + n), j1, Math.min(j2, j1 + n)]);
      groups.push(group);
      group = [];
      group.push([tag, Math.max(i1, i2 - n), i2, Math.max(j1, j2 - n), j2]);
      continue;
    }
    group.push([tag, i1, i2, j1, j2]);
  }
  if (group.length > 0 && !(group.length === 1 && group[0]![0] === 'equal')) groups.push(group);
  return groups;
}

function range(start: number, stop: number): string {
  const length = stop - start;
  if (length === 1) return `${start + 1}`;
  if (length === 0) return `${start},0`;
  return `${start + 1},${length}`;
}

/** Lines with their newline kept, the last one given one (go-difflib's SplitLines). */
function splitLines(text: string): string[] {
  const lines = text.split(/(?<=\n)/);
  lines[lines.length - 1] += '\n';
  return lines;
}

/**
 * Go's `json.MarshalIndent(value, "", " ")` of plain JSON data: one space per level, map
 * keys in the order given (callers sort Go maps), HTML characters escaped.
 */
export function goIndentedJson(value: unknown): string {
  return JSON.stringify(value, null, 1).replace(/[<>&\u2028\u2029]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * The unified diff of two texts, three lines of context, without file headers; '' when equal.
 *
 * @example
 * unifiedDiff('{\n "a": 1\n}', '{\n "a": 2\n}'); // '@@ -1,3 +1,3 @@\n {\n- "a": 1\n+ "a": 2\n }\n'
 */
export function unifiedDiff(before: string, after: string): string {
  const a = splitLines(before);
  const b = splitLines(after);
  let out = '';
  for (const group of groupedOpcodes(a, b, 3)) {
    const first = group[0]!;
    const last = group[group.length - 1]!;
    out += `@@ -${range(first[1], last[2])} +${range(first[3], last[4])} @@\n`;
    for (const [tag, i1, i2, j1, j2] of group) {
      if (tag === 'equal') for (const line of a.slice(i1, i2)) out += ` ${line}`;
      if (tag === 'replace' || tag === 'delete') for (const line of a.slice(i1, i2)) out += `-${line}`;
      if (tag === 'replace' || tag === 'insert') for (const line of b.slice(j1, j2)) out += `+${line}`;
    }
  }
  return out;
}
