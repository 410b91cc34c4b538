/**
 * What the CLI's bundle (dist/opgen/cli.cjs, made by scripts/bundle-cli.js) gives bin/opgen.js:
 * the program, and the switch of the bundle's own copy of the compile cache, which loads
 * TypeScript for the commands that parse it.
 *
 * @module
 */
export { main } from './cli.js';
export { enableCompileCache } from './compile-cache.js';
