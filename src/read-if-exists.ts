import { readFile } from 'node:fs/promises';

/** The text of the file at `path`, or undefined when there is none. */
export async function readIfExists(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // A folder where a file goes counts as no file: writing one there fails, atomically.
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') return undefined;
    throw error;
  }
}
