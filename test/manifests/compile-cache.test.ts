import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import nodeModule from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { copyFixture, fixtures } from './run.js';

// The built binary keeps V8's compiled TypeScript between runs (src/compile-cache.ts). A run
// that reads the cache must write exactly what a run without it writes, and a broken, foreign
// or unwritable cache must only cost speed. Needs `npm run build` first (npm test runs it).

const bin = fileURLToPath(new URL('../../bin/opgen.js', import.meta.url));
const run = promisify(execFile);
const scratch: string[] = [];
const builtinCache = 'enableCompileCache' in nodeModule;

beforeAll(() => {
  if (!existsSync(fileURLToPath(new URL('../../dist/cli.js', import.meta.url)))) throw new Error('run npm run build first');
});
afterEach(() => {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'opgen-compile-cache-'));
  scratch.push(dir);
  return dir;
}

/** `opgen manifests` on a fresh copy of the rich fixture, with the cache under `cacheRoot`; returns the project. */
async function manifests(cacheRoot: string, env: NodeJS.ProcessEnv = {}): Promise<string> {
  const project = copyFixture('everything');
  scratch.push(project);
  const { OPGEN_DISABLE_COMPILE_CACHE: _, ...inherited } = process.env;
  await run('node', [bin, 'manifests', '--dir', project], { env: { ...inherited, OPGEN_CACHE_DIR: cacheRoot, ...env } });
  return project;
}

/** The cache files, by path below the cache directory. */
function cacheFiles(cacheRoot: string): Map<string, Buffer> {
  const root = join(cacheRoot, 'compile-cache');
  if (!existsSync(root)) return new Map();
  return new Map(
    readdirSync(root, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name))
      .sort()
      .map((path) => [relative(root, path), readFileSync(path)]),
  );
}

function expectGoldenCrds(project: string): void {
  const expected = join(fixtures, 'everything/expected/config/crd/bases');
  for (const name of readdirSync(expected)) {
    expect(readFileSync(join(project, 'config/crd/bases', name), 'utf8'), name).toBe(readFileSync(join(expected, name), 'utf8'));
  }
}

describe('the compile cache of opgen', () => {
  it('is written by the first run, used unchanged by the next, and changes nothing in the output', async () => {
    const cache = tempDir();
    expectGoldenCrds(await manifests(cache));
    const written = cacheFiles(cache);
    // Node 22.1+ keeps its own cache of every module; Node 20 gets opgen's, of the CLI's
    // bundle of `manifests`, TypeScript and ts-morph.
    if (!builtinCache) {
      expect([...written.keys()].map((path) => basename(path).replace(/-[0-9a-f]+(-\w+)?\.cache$/, '$1'))).toEqual(['manifests.cjs-manifests', 'ts-morph-common.js', 'ts-morph.js', 'typescript.js']);
    }
    expect(written.size).toBeGreaterThan(0);
    const mtimes = [...written.keys()].map((path) => statSync(join(cache, 'compile-cache', path)).mtimeMs);

    expectGoldenCrds(await manifests(cache));
    const reread = cacheFiles(cache);
    expect([...reread.keys()]).toEqual([...written.keys()]);
    for (const [path, data] of written) expect(reread.get(path)!.equals(data), path).toBe(true);
    expect([...written.keys()].map((path) => statSync(join(cache, 'compile-cache', path)).mtimeMs)).toEqual(mtimes);
  });

  it.skipIf(builtinCache)('replaces cache files that are truncated or were made from another source (Node 20)', async () => {
    const cache = tempDir();
    await manifests(cache);
    const good = cacheFiles(cache);
    const dir = join(cache, 'compile-cache');
    const [truncated, foreign, garbage] = [...good.keys()].sort();
    writeFileSync(join(dir, truncated!), good.get(truncated!)!.subarray(0, 100));
    const other = Buffer.from(good.get(foreign!)!);
    other[0]! ^= 1; // the checksum of a different source
    writeFileSync(join(dir, foreign!), other);
    writeFileSync(join(dir, garbage!), 'not a cache');

    expectGoldenCrds(await manifests(cache));
    const rewritten = cacheFiles(cache);
    for (const name of [truncated!, foreign!, garbage!]) {
      expect(rewritten.get(name)!.subarray(0, 8), name).toEqual(good.get(name)!.subarray(0, 8));
      expect(rewritten.get(name)!.length, name).toBeGreaterThan(1000);
    }
  });

  it.skipIf(builtinCache)('runs a file changed in place, at the same size and modification time, from its new source (Node 20)', async () => {
    // npm gives every installed file the same modification time; only the change time tells a
    // rewritten file from the one the cache was made of. Non-ASCII text must survive the cache too.
    const dir = tempDir();
    const module = join(dir, 'node_modules/m/index.js');
    mkdirSync(dirname(module), { recursive: true });
    const load = async () => {
      const script = [
        `import { enableCompileCache, loadCompiled } from ${JSON.stringify(fileURLToPath(new URL('../../dist/compile-cache.js', import.meta.url)))};`,
        `import { createRequire } from 'node:module';`,
        'enableCompileCache();',
        `loadCompiled(${JSON.stringify(join(dir, 'main.js'))}, ['m']);`,
        `console.log(createRequire(${JSON.stringify(join(dir, 'main.js'))})('m'));`,
      ].join('\n');
      const { OPGEN_DISABLE_COMPILE_CACHE: _, ...inherited } = process.env;
      return (await run('node', ['--input-type=module', '-e', script], { env: { ...inherited, OPGEN_CACHE_DIR: join(dir, 'cache') } })).stdout;
    };
    const npmTime = new Date('1985-10-26T08:15:00Z');
    writeFileSync(module, "module.exports = 'één';");
    utimesSync(module, npmTime, npmTime);
    const installed = statSync(module);
    expect(await load()).toBe('één\n');
    expect(await load()).toBe('één\n');
    expect(cacheFiles(join(dir, 'cache')).size).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 20)); // a change time the first write did not have
    writeFileSync(module, "module.exports = 'àén';");
    utimesSync(module, npmTime, npmTime);
    expect(statSync(module, { bigint: true })).toMatchObject({ size: BigInt(installed.size), mtimeNs: BigInt(npmTime.getTime()) * 1_000_000n, ino: BigInt(installed.ino) });
    expect(await load()).toBe('àén\n');
    expect(await load()).toBe('àén\n');
  });

  it('is only skipped when its directory cannot be written', async () => {
    const blocked = join(tempDir(), 'a-file');
    writeFileSync(blocked, '');
    expectGoldenCrds(await manifests(blocked));
  });

  it("leaves TypeScript's lib files to ts-morph projects that type-check, loaded on their first use", async () => {
    // An in-memory project reads the lib .d.ts files that opgen's cache leaves out of the compiled module.
    const script = [
      `import { enableCompileCache } from ${JSON.stringify(fileURLToPath(new URL('../../dist/compile-cache.js', import.meta.url)))};`,
      'enableCompileCache();',
      `const { Project } = await import(${JSON.stringify(fileURLToPath(new URL('../../dist/ts-morph.js', import.meta.url)))});`,
      "const project = new Project({ useInMemoryFileSystem: true, compilerOptions: { lib: ['lib.es5.d.ts'] } });",
      `project.createSourceFile('a.ts', 'const xs: Array<number> = [1];\\nexport const s: string = xs.map((n) => n + 1).join();\\nconst n: number = "x";\\n');`,
      'console.log(project.getPreEmitDiagnostics().map((d) => d.getMessageText()).join("\\n"));',
    ].join('\n');
    const cache = tempDir();
    const { OPGEN_DISABLE_COMPILE_CACHE: _, ...inherited } = process.env;
    const check = async (env: NodeJS.ProcessEnv) => (await run('node', ['--input-type=module', '-e', script], { env: { ...inherited, OPGEN_CACHE_DIR: cache, ...env } })).stdout;
    const expected = "Type 'string' is not assignable to type 'number'.\n";
    expect(await check({ OPGEN_DISABLE_COMPILE_CACHE: '1' })).toBe(expected);
    expect(await check({})).toBe(expected);
    expect(await check({})).toBe(expected);
  });

  it('is off with OPGEN_DISABLE_COMPILE_CACHE=1', async () => {
    const cache = tempDir();
    expectGoldenCrds(await manifests(cache, { OPGEN_DISABLE_COMPILE_CACHE: '1' }));
    expect(cacheFiles(cache).size).toBe(0);
  });
});
