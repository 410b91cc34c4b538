import { describe, expect, it } from 'vitest';
import { changelogBetween } from '../../src/upgrade/changelog.js';
import { withOpgenRanges } from '../../src/upgrade/package-ranges.js';
import { planUpgrade } from '../../src/upgrade/plan.js';
import type { ScaffoldFiles } from '../../src/upgrade/scaffold-version.js';

const files = (entries: Record<string, string>): ScaffoldFiles => new Map(Object.entries(entries).map(([path, content]) => [path, { content }]));
const versions = { from: '0.1.0', to: '0.2.0' };

describe('planUpgrade', () => {
  it('decides each file from the old scaffold, the new one and the disk', () => {
    const old = files({ same: 's', untouched: 'a', edited: 'a\nb\nc\n', dropped: 'd', droppedEdited: 'd', deleted: 'x', mine: 'm' });
    const next = files({ same: 's', untouched: 'A', edited: 'A\nb\nc\n', added: 'n', deleted: 'X', mine: 'm' });
    const disk = new Map<string, string | undefined>([
      ['same', 'changed by me'],
      ['untouched', 'a'],
      ['edited', 'a\nb\nC\n'],
      ['dropped', 'd'],
      ['droppedEdited', 'd, mine'],
      ['deleted', undefined],
      ['mine', 'mine'],
      ['added', undefined],
    ]);
    expect(planUpgrade(old, next, disk, versions)).toEqual([
      { path: 'added', action: 'CREATE', content: 'n' },
      { path: 'deleted', action: 'SKIP', note: 'you deleted it; opgen leaves it deleted' },
      { path: 'dropped', action: 'DELETE' },
      { path: 'droppedEdited', action: 'SKIP', note: 'the new scaffold no longer has it, and you changed it: it stays yours' },
      { path: 'edited', action: 'MERGE', content: 'A\nb\nC\n' },
      { path: 'untouched', action: 'UPDATE', content: 'A' },
    ]);
  });

  it('merges a file the user and the new scaffold both added from an empty base, so a difference is a conflict', () => {
    const [step] = planUpgrade(files({}), files({ 'config/x.yaml': 'a: 1\n' }), new Map([['config/x.yaml', 'a: 2\n']]), versions);
    expect(step).toEqual({
      path: 'config/x.yaml',
      action: 'CONFLICT',
      content: '<<<<<<< yours\na: 2\n||||||| opgen 0.1.0\n=======\na: 1\n>>>>>>> opgen 0.2.0\n',
    });
  });
});

describe('withOpgenRanges', () => {
  it('moves registry ranges of the runtime and the CLI to the new version and leaves hand-picked specs', () => {
    const text = JSON.stringify({ dependencies: { '@opgen/runtime': '^0.1.0', yaml: '^2.0.0' }, devDependencies: { opgen: 'file:../opgen.tgz' } }, null, 2);
    expect(JSON.parse(withOpgenRanges(text, '0.2.0')!)).toEqual({
      dependencies: { '@opgen/runtime': '^0.2.0', yaml: '^2.0.0' },
      devDependencies: { opgen: 'file:../opgen.tgz' },
    });
    expect(withOpgenRanges(JSON.stringify({ dependencies: { '@opgen/runtime': '^0.2.0' } }), '0.2.0')).toBeUndefined();
    expect(withOpgenRanges('{ <<<<<<< yours', '0.2.0')).toBeUndefined();
  });
});

describe('changelogBetween', () => {
  const changelog = '# Changelog\n\nintro\n\n## 0.3.0\n\nthree\n\n## 0.2.0\n\ntwo\n\n## 0.1.0\n\none\n';
  it('takes the releases after the project\'s up to the running one', () => {
    expect(changelogBetween('0.1.0', '0.2.0', changelog)).toBe('## 0.2.0\n\ntwo');
    expect(changelogBetween('0.1.0', '0.3.0', changelog)).toBe('## 0.3.0\n\nthree\n\n## 0.2.0\n\ntwo');
    expect(changelogBetween(undefined, '0.1.0', changelog)).toBe('## 0.1.0\n\none');
    expect(changelogBetween('0.3.0', '0.3.0', changelog)).toBe('');
  });
});
