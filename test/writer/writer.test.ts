import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UserError } from '../../src/errors.js';
import { applyChanges, formatPlan, planChanges, type GeneratedFile } from '../../src/writer/index.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'opgen-writer-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const file = (path: string, content: string, ownership: GeneratedFile['ownership'] = 'user'): GeneratedFile => ({
  path,
  content,
  ownership,
});

async function tree(dir: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const rel = prefix + entry.name;
    if (entry.isDirectory()) out.push(...(await tree(join(dir, entry.name), `${rel}/`)));
    else out.push(rel);
  }
  return out.sort();
}

describe('planChanges', () => {
  it('decides per ownership what happens to each file', async () => {
    await mkdir(join(root, 'config'), { recursive: true });
    await writeFile(join(root, 'same.ts'), 'same');
    await writeFile(join(root, 'mine.ts'), 'edited by the user');
    await writeFile(join(root, 'config/role.yaml'), 'old');
    await writeFile(join(root, 'sample.yaml'), 'user sample');

    const changes = await planChanges(root, [
      file('new.ts', 'x'),
      file('same.ts', 'same'),
      file('mine.ts', 'scaffold'),
      file('config/role.yaml', 'new', 'generated'),
      file('sample.yaml', 'generated sample', 'once'),
    ]);

    expect(changes.map((c) => [c.path, c.action])).toEqual([
      ['config/role.yaml', 'UPDATE'],
      ['mine.ts', 'CONFLICT'],
      ['new.ts', 'CREATE'],
      ['same.ts', 'UNCHANGED'],
      ['sample.yaml', 'SKIP'],
    ]);
  });

  it('lets --force overwrite what the user owns', async () => {
    await writeFile(join(root, 'mine.ts'), 'edited');
    const [change] = await planChanges(root, [file('mine.ts', 'scaffold')], { force: true });
    expect(change?.action).toBe('UPDATE');
  });
});

describe('applyChanges', () => {
  it('writes creates and updates, leaves skips and reports each', async () => {
    await writeFile(join(root, 'sample.yaml'), 'kept');
    const changes = await planChanges(root, [
      file('a/b/c.ts', 'c'),
      { ...file('run.sh', '#!/bin/sh\n'), executable: true },
      file('sample.yaml', 'replaced?', 'once'),
    ]);
    await applyChanges(root, changes);

    expect(await readFile(join(root, 'a/b/c.ts'), 'utf8')).toBe('c');
    expect(await readFile(join(root, 'sample.yaml'), 'utf8')).toBe('kept');
    expect(formatPlan(changes)).toBe('CREATE a/b/c.ts\nCREATE run.sh\nSKIP   sample.yaml');
  });

  it('writes nothing when any file would overwrite the user', async () => {
    await writeFile(join(root, 'mine.ts'), 'edited');
    const changes = await planChanges(root, [file('new.ts', 'n'), file('mine.ts', 'scaffold')]);
    await expect(applyChanges(root, changes)).rejects.toThrow(UserError);
    await expect(applyChanges(root, changes)).rejects.toThrow(/mine\.ts.*--force/);
    expect(await tree(root)).toEqual(['mine.ts']);
  });

  it('leaves the tree as it was when a write fails half way', async () => {
    await writeFile(join(root, 'existing.ts'), 'before');
    const changes = await planChanges(root, [
      file('existing.ts', 'after', 'generated'),
      file('fresh/dir/new.ts', 'new'),
      file('later/x.ts', 'fails'),
    ]);
    // Something else takes the path after planning: the third write cannot create its folder.
    await writeFile(join(root, 'later'), 'not a folder');
    const failure = applyChanges(root, changes);
    await expect(failure).rejects.toThrow(UserError);
    await expect(failure).rejects.toThrow(/^could not write .*later.*: .*; nothing was written$/);

    expect(await readFile(join(root, 'existing.ts'), 'utf8')).toBe('before');
    expect(await tree(root)).toEqual(['existing.ts', 'later']);
  });

  it('deletes a DELETE, and puts it back when another write of the plan fails', async () => {
    await writeFile(join(root, 'old.ts'), 'old');
    const remove = { path: 'old.ts', action: 'DELETE' as const, file: file('old.ts', '', 'generated') };
    await applyChanges(root, [remove, ...(await planChanges(root, [file('new.ts', 'new')]))]);
    expect(await tree(root)).toEqual(['new.ts']);

    await writeFile(join(root, 'old.ts'), 'old');
    // A folder takes the path of a file after planning: its rename, after old.ts's, fails.
    const changes = [remove, ...(await planChanges(root, [file('taken.ts', 'fails')]))];
    await mkdir(join(root, 'taken.ts'));
    await expect(applyChanges(root, changes)).rejects.toThrow(/nothing was written$/);
    expect(await tree(root)).toEqual(['new.ts', 'old.ts']);
    expect(await readFile(join(root, 'old.ts'), 'utf8')).toBe('old');
  });
});
