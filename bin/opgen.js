#!/usr/bin/env node
// Runs the CLI bundled by scripts/bundle-cli.js (`npm run build`).
import { createRequire } from 'node:module';
import { enableCompileCache, loadCompiled } from '../dist/compile-cache.js';

const command = process.argv.slice(2).find((arg) => !arg.startsWith('-'));
// Without a command (`opgen`, `--help`, `--version`) the program's shell is all that runs: its
// own small bundle, the commands left out (scripts/bundle-cli.js); `manifests`, run over and
// over, has a bundle of its own too, without the other commands' code to read.
const bundle = command === undefined ? '../dist/opgen/help.cjs' : command === 'manifests' ? '../dist/opgen/manifests.cjs' : '../dist/opgen/cli.cjs';
// `opgen create api --help | head -1`: a reader that closed the pipe has had what it wanted, as
// with any Unix tool; the output is not an error worth a stack trace.
process.stdout.on('error', (error) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(process.exitCode ?? 0);
});
const verbose = process.argv.includes('--verbose');
enableCompileCache();
if (verbose) {
  // Stack traces point back to src/ through the bundle's source map, which Node applies only
  // to the files it loads itself, and which costs time to read: not through the cache.
  process.setSourceMapsEnabled(true);
} else {
  // Each code cache keeps the functions the run that wrote it compiled, and V8 reads all of
  // it back on every start: `manifests`, the command run over and over, has its own; so have
  // `help` and `version`, which would otherwise read the code of whichever command wrote the
  // shared cache (a megabyte for `init`) to print a page.
  const variant = command === 'manifests' ? 'manifests' : command === 'help' || command === 'version' ? 'help' : 'other';
  loadCompiled(import.meta.filename, [bundle], variant);
}
const cli = createRequire(import.meta.url)(bundle);
cli.enableCompileCache();
process.exitCode = await cli.main(process.argv);
