// Bundles the CLI that bin/opgen.js runs into one CommonJS file, dist/opgen/cli.cjs.
// Unbundled, every run resolves, reads and compiles about 90 ES modules of dist/ and 80
// CommonJS files of yaml and commander, and Node 20 keeps no compiled code of ES modules
// between runs; one CommonJS file goes through opgen's compile cache (src/compile-cache.ts)
// like TypeScript does. Commands stay lazy: each command's modules run only when it does.
// ts-morph and TypeScript are not bundled: src/ts-morph.ts requires them at run time.
import { build } from 'esbuild';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { Buffer } from 'node:buffer';
import { basename, dirname, join, relative, resolve } from 'node:path';

const outfile = 'dist/opgen/cli.cjs';

// Each source file still sees the import.meta of the file tsc makes of it (dist/<path>.js),
// not of the bundle, so that its paths to templates, data and package.json hold; a file of
// the runtime's dist/ that the CLI bundles (its CEL checker) sees its own.
const ownImportMeta = {
  name: 'own-import-meta',
  setup(bundle) {
    const src = resolve('src');
    const runtimeDist = resolve('runtime/dist');
    const withOwnMeta = (text, compiledPath) => {
      const url = `new URL(${JSON.stringify(relative(dirname(outfile), compiledPath))}, require('node:url').pathToFileURL(__filename))`;
      return text.replace(/import\.meta\.(url|filename)/g, (_, field) => (field === 'url' ? `${url}.href` : `require('node:url').fileURLToPath(${url})`));
    };
    bundle.onLoad({ filter: /\.ts$/ }, async ({ path }) => {
      if (!path.startsWith(`${src}/`)) return undefined;
      return { contents: withOwnMeta(await readFile(path, 'utf8'), join('dist', relative(src, path)).replace(/\.ts$/, '.js')), loader: 'ts' };
    });
    bundle.onLoad({ filter: /\.js$/ }, async ({ path }) => {
      if (!path.startsWith(`${runtimeDist}/`)) return undefined;
      return { contents: withOwnMeta(await readFile(path, 'utf8'), relative(resolve('.'), path)), loader: 'js' };
    });
  },
};

/**
 * A bundle of the same entry with every command module but `kept` left out (none for the
 * help bundle): what it does not hold, a run of it neither reads nor decodes.
 * - `opgen`, `opgen --help` and `opgen --version` need only the program's shell (help.cjs),
 *   a fifteenth of the CLI's size to read and compile, so that the help prints about as fast
 *   as Node starts.
 * - `opgen manifests`, the command run over and over, gets manifests.cjs: about half of the
 *   CLI's bytes, without the scaffolding, deploy and packaging commands and their libraries.
 * bin/opgen.js picks the bundle; a command reached in one that left it out would be a bug of
 * bin/opgen.js: its stand-in throws.
 */
const onlyCommand = (kept) => ({
  name: 'only-command',
  setup(bundle) {
    bundle.onResolve({ filter: /^\.\/commands\// }, ({ path }) => (path === `./commands/${kept}.js` ? undefined : { path, namespace: 'left-out' }));
    bundle.onLoad({ filter: /.*/, namespace: 'left-out' }, ({ path }) => ({
      contents: `throw new Error(${JSON.stringify(`${path} is not in this bundle`)});`,
      loader: 'js',
    }));
  },
});

const options = {
  entryPoints: ['src/cli-bundle.ts'],
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  external: ['ts-morph', 'typescript'],
  // A dynamic import() of what stays outside (Node's built-ins) becomes require(): code that V8
  // compiled from the cache has no module loader to import() through.
  supported: { 'dynamic-import': false },
  // `--verbose` maps stack traces back to src/ (bin/opgen.js); positions are enough for that,
  // and leaving the sources out keeps the published map a third of the size.
  sourcemap: true,
  sourcesContent: false,
  logLevel: 'warning',
  write: false,
};
const outputFiles = [
  ...(await build({ ...options, outfile, plugins: [ownImportMeta] })).outputFiles,
  ...(await build({ ...options, outfile: join(dirname(outfile), 'help.cjs'), plugins: [ownImportMeta, onlyCommand(undefined)] })).outputFiles,
  ...(await build({ ...options, outfile: join(dirname(outfile), 'manifests.cjs'), plugins: [ownImportMeta, onlyCommand('manifests')] })).outputFiles,
];

// esbuild escapes the strings it writes, but not comments and regular expression literals
// (cel-js's duration pattern has a µ). Escaped too, the bundle is pure ASCII, which the compile
// cache decodes as latin1, a copy, instead of validating it as UTF-8: about 20 ms a run for
// cli.cjs. A \u escape means the same in both; only positions after it on its line shift.
const ascii = (file) => (file.path.endsWith('.cjs') ? { path: file.path, contents: Buffer.from(file.text.replace(/[^\0-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)) } : file);

// Only changed files are written, and files of an earlier build removed: `npm publish`
// rebuilds while tests may be running the CLI from dist/.
const outdir = dirname(outfile);
mkdirSync(outdir, { recursive: true });
const written = new Set();
for (const file of outputFiles.map(ascii)) {
  written.add(basename(file.path));
  if (!existsSync(file.path) || !readFileSync(file.path).equals(file.contents)) writeFileSync(file.path, file.contents);
}
for (const name of readdirSync(outdir)) if (!written.has(name)) rmSync(join(outdir, name));
