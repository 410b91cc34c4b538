import { readFile } from 'node:fs/promises';

/** The text of the file at `path`, or undefined when there is none. */
export async function readIfExists(path: string): Promise<string | undefined> {
  return orNone(readFile(path, 'utf8'));
}

/**
 * The bytes of the file at `path`, or undefined when there is none: for comparing with what
 * would be written, which needs no decoding (a CRD with a pod template is half a megabyte).
 */
export async function readBytesIfExists(path: string): Promise<Buffer | undefined> {
  return orNone(readFile(path));
}

async function orNone<T>(read: Promise<T>): Promise<T | undefined> {
  try {
    return await read;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // A folder where a file goes counts as no file: writing one there fails, atomically.
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') return undefined;
    throw error;
  }
}
