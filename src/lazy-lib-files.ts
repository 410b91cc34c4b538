/**
 * @ts-morph/common declares the text of TypeScript's lib `.d.ts` files (3 MB) as one array
 * literal at the top of its module. Every process that loads ts-morph would build those
 * strings, and their compiled form makes up most of the compile cache (5.6 MB of 8.8 MB), yet
 * they are only read by a project that type-checks against an in-memory file system, which
 * `opgen manifests` never creates. So the literal is cut out of the source that is compiled,
 * and evaluated on the first `getLibFiles()` call instead: the same array, later.
 *
 * @module
 */
import { runInThisContext } from 'node:vm';

/** The module file that holds the lib files. */
export const libFilesModule = 'ts-morph-common.js';

const declaration = Buffer.from('\nconst libFiles = [');
const getter = Buffer.from('\n    }];\n\nfunction getLibFiles() {\n    return libFiles;\n}\n');
const parameter = '__opgenLibFiles';

/** What `deferLibFiles` makes of a module's bytes: the source to compile, and the extra wrapper parameter it needs. */
export interface DeferredLibFiles {
  source: string;
  /** Evaluates the array the source no longer holds; passed to the module as `parameter`. */
  libFiles?: () => unknown;
  parameter: string;
}

/**
 * The source of @ts-morph/common (its file's bytes) with its lib files evaluated on first
 * use, or the source as it is when it does not have exactly the expected shape (another
 * version of the package). Lines are kept where they were, so that stack traces still point
 * at the installed file. Searched as bytes: the 3 MB literal is decoded only when used, and
 * always as UTF-8 (`encoding` is that of the rest, latin1 when the caller knows it is ASCII).
 */
export function deferLibFiles(bytes: Buffer, encoding: 'utf8' | 'latin1' = 'utf8'): DeferredLibFiles {
  const start = bytes.indexOf(declaration) + 1;
  const end = bytes.indexOf(getter);
  if (start === 0 || end < start || bytes.indexOf(declaration, start) >= 0 || bytes.indexOf(getter, end + 1) >= 0) {
    return { source: bytes.toString(encoding), parameter };
  }
  const cut = end + getter.length;
  let newlines = 0;
  for (let at = bytes.indexOf(10, start); at >= 0 && at < cut; at = bytes.indexOf(10, at + 1)) newlines++;
  const lazy = `let libFiles; function getLibFiles() { return libFiles ??= ${parameter}(); }`;
  const literal = bytes.subarray(start + declaration.length - 2, end + '\n    }]'.length);
  return {
    source: `${bytes.toString(encoding, 0, start)}${lazy}${'\n'.repeat(newlines)}${bytes.toString(encoding, cut)}`,
    libFiles: () => runInThisContext(`(${literal.toString('utf8')})`, { filename: `${libFilesModule} (lib files)` }),
    parameter,
  };
}
