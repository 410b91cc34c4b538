import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { merge3 } from '../../src/upgrade/merge3.js';

const labels = { ours: 'yours', base: 'opgen 0.1.0', theirs: 'opgen 0.2.0' };
const base = 'a\nb\nc\nd\ne\nf\ng\n';

describe('merge3', () => {
  it('takes each side where only it changed, even in one file', () => {
    const result = merge3('a\nB\nc\nd\ne\nf\ng\n', base, 'a\nb\nc\nd\ne\nF\ng\nh\n', labels);
    expect(result).toEqual({ text: 'a\nB\nc\nd\ne\nF\ng\nh\n', conflicts: 0 });
  });

  it('takes a change both sides made alike once', () => {
    expect(merge3('a\nB\nc\nd\ne\nf\ng\n', base, 'a\nB\nc\nd\ne\nf\ng\n', labels)).toEqual({ text: 'a\nB\nc\nd\ne\nf\ng\n', conflicts: 0 });
  });

  it('writes diff3 markers with all three versions where both changed the same lines differently', () => {
    const result = merge3('a\nmine\nc\nd\ne\nf\ng\n', base, 'a\ntheirs\nc\nd\ne\nf\nG\n', labels);
    expect(result.conflicts).toBe(1);
    expect(result.text).toBe(
      'a\n<<<<<<< yours\nmine\n||||||| opgen 0.1.0\nb\n=======\ntheirs\n>>>>>>> opgen 0.2.0\nc\nd\ne\nf\nG\n',
    );
  });

  it('counts changes to adjacent lines as touching, as git does', () => {
    expect(merge3('a\nB\nc\nd\ne\nf\ng\n', base, 'a\nb\nC\nd\ne\nf\ng\n', labels).conflicts).toBe(1);
  });

  it('keeps a last line without a newline, and puts the marker after it on its own line', () => {
    expect(merge3('a\nb', 'a\nb', 'A\nb', labels).text).toBe('A\nb');
    expect(merge3('x', 'a', 'y', labels).text).toBe('<<<<<<< yours\nx\n||||||| opgen 0.1.0\na\n=======\ny\n>>>>>>> opgen 0.2.0\n');
  });

  it('merges one side over an unchanged other to that side, and identical sides to themselves', () => {
    const text = fc.array(fc.constantFrom('a\n', 'b\n', 'c\n', '\n', 'd'), { maxLength: 12 }).map((lines) => lines.join(''));
    fc.assert(
      fc.property(text, text, (b, other) => {
        expect(merge3(other, b, b, labels)).toEqual({ text: other, conflicts: 0 });
        expect(merge3(b, b, other, labels)).toEqual({ text: other, conflicts: 0 });
        expect(merge3(other, b, other, labels)).toEqual({ text: other, conflicts: 0 });
      }),
    );
  });

  it('agrees with git merge-file on whether a merge is clean, and on a clean result', () => {
    const dir = mkdtempSync(join(tmpdir(), 'opgen-merge3-'));
    // Each side keeps, in order, a subset of one list in which each line is unique (a line and
    // its edited twin stand side by side): so there is one way to align any two of them, and
    // both tools must find the same changes.
    const ordered = ['a', "a'", 'b', "b'", 'c', "c'", 'd', "d'", 'e', "e'", 'f', "f'"].map((line) => `${line}\n`);
    const lines = fc.subarray(ordered).map((l) => l.join(''));
    fc.assert(
      fc.property(lines, lines, lines, (ours, b, theirs) => {
        writeFileSync(join(dir, 'ours'), ours);
        writeFileSync(join(dir, 'base'), b);
        writeFileSync(join(dir, 'theirs'), theirs);
        let clean = true;
        try {
          execFileSync('git', ['merge-file', '-q', join(dir, 'ours'), join(dir, 'base'), join(dir, 'theirs')]);
        } catch {
          clean = false;
        }
        const result = merge3(ours, b, theirs, labels);
        expect(result.conflicts === 0).toBe(clean);
        if (clean) expect(result.text).toBe(readFileSync(join(dir, 'ours'), 'utf8'));
      }),
      { numRuns: 300 },
    );
  });
});
