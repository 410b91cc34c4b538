import { chmod, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { UserError } from '../errors.js';
import type { PlannedChange } from './types.js';

/**
 * Writes every CREATE and UPDATE of a plan and removes every DELETE, all or nothing: each
 * file is first written beside its target, and only when all are staged are they renamed
 * into place (a deleted file is renamed aside, removed once all is done); a failure restores
 * what was there. A plan with a CONFLICT writes nothing.
 */
export async function applyChanges(root: string, changes: readonly PlannedChange[]): Promise<void> {
  const conflicts = changes.filter((c) => c.action === 'CONFLICT');
  if (conflicts.length > 0) {
    const names = conflicts.map((c) => c.path).join(', ');
    throw new UserError(`would overwrite ${names}; nothing was written (use --force to overwrite)`);
  }
  const writes = changes.filter((c) => c.action === 'CREATE' || c.action === 'UPDATE' || c.action === 'DELETE');
  const token = `.opgen-tmp-${process.pid}-${Date.now()}`;
  const createdDirs: string[] = [];
  const staged: { target: string; temp: string; backup?: string }[] = [];
  try {
    for (const change of writes) {
      const target = join(root, change.path);
      const temp = `${target}${token}`;
      if (change.action !== 'DELETE') await mkdirTracked(dirname(target), createdDirs);
      staged.push({ target, temp });
      if (change.action === 'DELETE') continue;
      await writeFile(temp, change.file.content, { flag: 'wx' });
      if (change.file.executable) await chmod(temp, 0o755);
    }
    for (const [i, entry] of staged.entries()) {
      const action = writes[i]!.action;
      if (action === 'UPDATE' || action === 'DELETE') {
        entry.backup = `${entry.target}${token}.bak`;
        await rename(entry.target, entry.backup);
      }
      if (action !== 'DELETE') await rename(entry.temp, entry.target);
    }
  } catch (error) {
    await rollBack(staged, createdDirs);
    throw asUserError(error);
  }
  await Promise.all(staged.flatMap((s) => (s.backup ? [rm(s.backup, { force: true })] : [])));
}

/** A filesystem refusal is the user's to fix (permissions, a file where a folder goes). */
function asUserError(error: unknown): unknown {
  const fsError = error as NodeJS.ErrnoException;
  if (!fsError.code || !fsError.path) return error;
  const reason = fsError.message.replace(/^[A-Z]+: /, '').replace(/, \w+ '.*'$/, '');
  return new UserError(`could not write ${fsError.path}: ${reason}; nothing was written`);
}

async function rollBack(staged: { target: string; temp: string; backup?: string }[], createdDirs: string[]) {
  for (const entry of staged.reverse()) {
    await rm(entry.temp, { force: true });
    if (entry.backup) await rename(entry.backup, entry.target).catch(() => undefined);
  }
  // Directories the write created are removed deepest first, only when left empty.
  for (const dir of createdDirs.reverse()) await rm(dir, { recursive: false }).catch(() => undefined);
}

async function mkdirTracked(dir: string, createdDirs: string[]): Promise<void> {
  const first = await mkdir(dir, { recursive: true });
  if (first === undefined) return;
  // mkdir returns the first directory it created; record it and each below it down to dir.
  const chain: string[] = [];
  for (let d = dir; d.length >= first.length; d = dirname(d)) chain.unshift(d);
  createdDirs.push(...chain);
}
