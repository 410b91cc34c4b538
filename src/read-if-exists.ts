import { readFileSync } from 'node:fs';

/**
 * The text of the file at `path`, or undefined when there is none. Read synchronously, though
 * callers await it: the files a command compares with (a CRD, a sample, a kustomization per
 * kind) are small and already in the page cache, and a trip through libuv's thread pool for
 * each open, stat, read and close costs more than the read, on a busy machine most of all.
 */
export async function readIfExists(path: string): Promise<string | undefined> {
  return orNone(() => readFileSync(path, 'utf8'));
}

/**
 * The bytes of the file at `path`, or undefined when there is none: for comparing with what
 * would be written, which needs no decoding (a CRD with a pod template is half a megabyte).
 */
export async function readBytesIfExists(path: string): Promise<Buffer | undefined> {
  return orNone(() => readFileSync(path));
}

function orNone<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // A folder where a file goes counts as no file: writing one there fails, atomically.
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') return undefined;
    throw error;
  }
}
