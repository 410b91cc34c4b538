import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';

const POLL_MS = 250;
// A lock directory without an owner file is one whose taker died between mkdir and writing it.
const OWNERLESS_MS = 10_000;

/**
 * Runs `work` holding a lock on `path` (a directory made with mkdir, which is atomic), so
 * that two test processes that find the cache empty at once download once: the second waits,
 * then its `work` finds the files in place. A lock whose owner on this host has died is taken
 * over. `onWait` is called once when another process holds it.
 *
 * @example
 * await withLock(`${dir}.lock`, () => download(url, dir), () =>
 *   console.error('waiting for another download'),
 * );
 */
export async function withLock<T>(path: string, work: () => Promise<T>, onWait?: (owner: string) => void): Promise<T> {
  let told = false;
  for (;;) {
    try {
      await mkdir(path);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = await readFile(join(path, 'owner'), 'utf8').catch(() => '');
    if (owner ? ownerIsGone(owner) : await ownerlessFor(path, OWNERLESS_MS)) {
      await rm(path, { recursive: true, force: true });
      continue;
    }
    if (!told && owner) {
      told = true;
      onWait?.(owner);
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  try {
    await writeFile(join(path, 'owner'), `${hostname()} ${process.pid}`);
    return await work();
  } finally {
    await rm(path, { recursive: true, force: true });
  }
}

/** `<host> <pid>` names a process; on this host we can tell whether it still runs. */
function ownerIsGone(owner: string): boolean {
  const [host, pid] = owner.trim().split(' ');
  if (host !== hostname() || !pid) return false;
  try {
    process.kill(Number(pid), 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

async function ownerlessFor(path: string, ms: number): Promise<boolean> {
  const made = await stat(path).then((s) => s.mtimeMs, () => undefined);
  return made !== undefined && Date.now() - made > ms;
}
