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

const declaration = 'const libFiles = [';
const getter = '\n    }];\n\nfunction getLibFiles() {\n    return libFiles;\n}\n';

/** What `deferLibFiles` makes of a source: the source to compile, and the extra wrapper parameter it needs. */
export interface DeferredLibFiles {
  source: string;
  /** Evaluates the array the source no longer holds; passed to the module as `parameter`. */
  libFiles?: () => unknown;
  parameter: string;
}

/**
 * The source of @ts-morph/common with its lib files evaluated on first use, or the source as
 * it is when it does not have exactly the expected shape (another version of the package).
 * Lines are kept where they were, so that stack traces still point at the installed file.
 */
export function deferLibFiles(source: string): DeferredLibFiles {
  const parameter = '__opgenLibFiles';
  const start = source.indexOf(`\n${declaration}`) + 1;
  const end = source.indexOf(getter);
  if (start === 0 || end < start || source.indexOf(`\n${declaration}`, start) >= 0 || source.indexOf(getter, end + 1) >= 0) return { source, parameter };
  const literal = source.slice(start + declaration.length - 1, end + '\n    }]'.length);
  const newlines = '\n'.repeat(source.slice(start, end + getter.length).split('\n').length - 1);
  const lazy = `let libFiles; function getLibFiles() { return libFiles ??= ${parameter}(); }`;
  return {
    source: `${source.slice(0, start)}${lazy}${newlines}${source.slice(end + getter.length)}`,
    libFiles: () => runInThisContext(`(${literal})`, { filename: `${libFilesModule} (lib files)` }),
    parameter,
  };
}
