import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanUp, opgen, projectDir } from '../scaffold/run.js';

// What `npm publish` ships of each package, read from `npm pack --dry-run` over the tree
// `npm test` built (pretest), and the versions a new project is given. The registry
// integration test installs these for real; this says which file is missing when one is.

const repo = fileURLToPath(new URL('../../', import.meta.url));
const runtimeDir = join(repo, 'runtime');

interface Manifest {
  version: string;
  bin?: Record<string, string>;
  exports?: Record<string, Record<string, string>>;
}

const readManifest = async (dir: string) => JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as Manifest;

async function packedFiles(dir: string): Promise<string[]> {
  const { stdout } = await execa('npm', ['pack', '--dry-run', '--ignore-scripts', '--json'], { cwd: dir });
  const [packed] = JSON.parse(stdout) as { files: { path: string }[] }[];
  return packed!.files.map((file) => file.path);
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => relative(dir, join(entry.parentPath, entry.name)));
}

describe('published packages', () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await cleanUp(dir);
    dir = undefined;
  });

  it('move in lockstep: opgen and @opgen/runtime have one version', async () => {
    expect((await readManifest(runtimeDir)).version).toBe((await readManifest(repo)).version);
  });

  it('opgen ships its bin, its bundle, every template and the API definitions, and no tests', async () => {
    const files = await packedFiles(repo);
    const manifest = await readManifest(repo);
    for (const bin of Object.values(manifest.bin ?? {})) expect(files).toContain(bin.replace(/^\.\//, ''));
    // The bundles bin/opgen.js runs, with the source maps --verbose traces bugs through, and the
    // compile cache it is loaded through; not a second, unbundled copy of the CLI.
    expect(files).toEqual(expect.arrayContaining(['dist/opgen/cli.cjs', 'dist/opgen/cli.cjs.map', 'dist/opgen/help.cjs', 'dist/opgen/help.cjs.map']));
    expect(files.filter((file) => /^dist\/[^/]+\.js$|^dist\/(?!opgen\/|templates\/|data\/)[^/]+\//.test(file)).sort()).toEqual(['dist/compile-cache.js', 'dist/lazy-lib-files.js']);
    for (const template of await filesUnder(join(repo, 'src/templates'))) expect(files).toContain(`dist/templates/${template}`);
    for (const data of await filesUnder(join(repo, 'src/data'))) expect(files).toContain(`dist/data/${data}`);
    expect(files.filter((file) => /\.tsbuildinfo$|^(src|test)\//.test(file))).toEqual([]);
  });

  it('@opgen/runtime ships every export with its types, and the control plane build script', async () => {
    const files = await packedFiles(runtimeDir);
    const targets = Object.values((await readManifest(runtimeDir)).exports ?? {}).flatMap((entry) => Object.values(entry));
    expect(targets.length).toBeGreaterThan(0);
    for (const target of targets) expect(files).toContain(target.replace(/^\.\//, ''));
    expect(files).toEqual(expect.arrayContaining(['controlplane/build.sh', 'controlplane/versions.env']));
    expect(files.filter((file) => /\.test\.|\.tsbuildinfo$|^(src|test)\//.test(file))).toEqual([]);
  });

  it('init depends on the caret range of its own version of both packages', async () => {
    const { version } = await readManifest(repo);
    dir = await projectDir('versioned-operator');
    const init = await opgen(dir, 'init', '--domain', 'example.com', '--skip-install');
    expect(init.stderr).toBe('');
    const manifest = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    expect(manifest.dependencies['@opgen/runtime']).toBe(`^${version}`);
    expect(manifest.devDependencies.opgen).toBe(`^${version}`);
  });
});
