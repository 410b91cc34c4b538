// Bundles the CLI that bin/opgen.js runs into a few files in dist/opgen/. Unbundled, every run
// resolves, reads and compiles about 90 ES modules of dist/ and 80 CommonJS files of yaml and
// commander, and Node 20 keeps no compiled code of ES modules between runs.
//
// Each command src/cli.ts imports lazily stays a file of its own, named for its module
// (dist/opgen/manifests.js), so that a run loads only the command it runs; code they share
// goes into chunks beside them. ts-morph and TypeScript are not bundled: src/ts-morph.ts
// requires them at run time through opgen's compile cache.
import { build } from 'esbuild';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, join, relative, resolve } from 'node:path';

const outdir = 'dist/opgen';

const lazyCommands = [...readFileSync('src/cli.ts', 'utf8').matchAll(/import\('\.\/(commands\/[\w-]+)\.js'\)/g)].map((m) => `src/${m[1]}.ts`);
const entryPoints = [
  'src/cli.ts',
  // Its own file, so that bin/opgen.js turns the cache on before the CLI's modules load.
  'src/compile-cache.ts',
  ...new Set(lazyCommands),
];

// Each source file still sees the import.meta of the file tsc makes of it (dist/<path>.js),
// not of the file it lands in, so that its paths to templates, data and package.json hold.
// Every output file is directly in outdir, so one relative path fits wherever it lands.
const ownImportMeta = {
  name: 'own-import-meta',
  setup(bundle) {
    const src = resolve('src');
    bundle.onLoad({ filter: /\.ts$/ }, async ({ path }) => {
      if (!path.startsWith(`${src}/`)) return undefined;
      const compiled = relative(outdir, join('dist', relative(src, path)).replace(/\.ts$/, '.js'));
      const url = `new URL(${JSON.stringify(compiled)}, import.meta.url)`;
      const contents = (await readFile(path, 'utf8')).replace(/import\.meta\.(url|filename)/g, (_, field) =>
        field === 'url' ? `${url}.href` : `__opgenFileURLToPath(${url})`,
      );
      const helper = contents.includes('__opgenFileURLToPath') ? `import { fileURLToPath as __opgenFileURLToPath } from 'node:url';\n` : '';
      return { contents: helper + contents, loader: 'ts' };
    });
  },
};

const names = entryPoints.map((entry) => basename(entry, '.ts'));
const twice = names.find((name, i) => names.indexOf(name) !== i);
if (twice) throw new Error(`scripts/bundle-cli.js: two entry points named ${twice}; every output file is directly in ${outdir}`);

const { outputFiles } = await build({
  entryPoints,
  entryNames: '[name]',
  chunkNames: 'chunk-[hash]',
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: ['ts-morph', 'typescript'],
  // `--verbose` maps stack traces back to src/ (bin/opgen.js).
  sourcemap: true,
  // CommonJS dependencies bundled into ES modules still require() Node's built-ins.
  banner: { js: `import { createRequire as __opgenCreateRequire } from 'node:module'; const require = __opgenCreateRequire(import.meta.url);` },
  logLevel: 'warning',
  plugins: [ownImportMeta],
  write: false,
});

// Only changed files are written, and files of an earlier build removed: `npm publish`
// rebuilds while tests may be running the CLI from dist/.
mkdirSync(outdir, { recursive: true });
const written = new Set();
for (const file of outputFiles) {
  written.add(basename(file.path));
  if (!existsSync(file.path) || !readFileSync(file.path).equals(file.contents)) writeFileSync(file.path, file.contents);
}
for (const name of readdirSync(outdir)) if (!written.has(name)) rmSync(join(outdir, name));
