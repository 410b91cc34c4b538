/**
 * Keeps V8's compiled code of TypeScript and ts-morph between runs. They are 13 MB of
 * JavaScript that V8 would otherwise parse and compile on every `opgen manifests`, which is
 * most of the time a small run takes. Node 22.1 and later do this for every module
 * (`module.enableCompileCache`); on Node 20 opgen loads those files itself, with V8's code
 * cache, when they are first needed (see ts-morph.ts).
 *
 * The cache is an optimisation only: any problem with it (no home directory, a read-only
 * disk, a truncated or foreign cache file) falls back to Node's own loading.
 *
 * @module
 */
import { closeSync, fstatSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import nodeModule, { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { Script, constants as vmConstants } from 'node:vm';
import { crc32 } from 'node:zlib';
import { deferLibFiles, libFilesModule } from './lazy-lib-files.js';

/** Where `loadCompiled` keeps code on Node 20, once `enableCompileCache` has chosen it. */
let cacheDir: string | undefined;

/** opgen's cache: `$OPGEN_CACHE_DIR`, `$XDG_CACHE_HOME/opgen` or `~/.cache/opgen`. */
export function opgenCacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  return env.OPGEN_CACHE_DIR || join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'opgen');
}

/** Where the compile cache lives unless `dir` is given, under {@link opgenCacheRoot}. */
export function compileCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(opgenCacheRoot(env), 'compile-cache', `node-${process.version}-${process.arch}`);
}

/**
 * Turns the compile cache on for this process; the CLI's entry point calls it before
 * importing anything else. `OPGEN_DISABLE_COMPILE_CACHE=1` turns it off.
 */
export function enableCompileCache(dir?: string): void {
  if (process.env.OPGEN_DISABLE_COMPILE_CACHE) return;
  try {
    const target = dir ?? compileCacheDir();
    const builtin = (nodeModule as { enableCompileCache?: (dir: string) => unknown }).enableCompileCache;
    if (builtin) builtin(target);
    else cacheDir = target;
  } catch {
    // Best effort: Node loads the modules the usual way.
  }
}

/**
 * Loads a chain of CommonJS files through the cache: `chain[0]` resolved from `from`, each
 * next one from the file before it; dependencies first, so that each file's require() finds
 * the one it needs already loaded. A later require() of the chain returns these modules.
 * Does nothing unless `enableCompileCache` chose opgen's own cache (Node 20).
 *
 * A cache holds the functions compiled by the run that wrote it; `variant` gives runs that
 * call different code their own cache of the same files.
 */
export function loadCompiled(from: string, chain: readonly string[], variant?: string): void {
  const dir = cacheDir;
  if (!dir) return;
  try {
    const files: string[] = [];
    for (const request of chain) {
      from = createRequire(from).resolve(request);
      files.push(from);
    }
    const writes: Array<() => void> = [];
    for (const file of files.reverse()) loadCached(file, dir, writes, variant);
    // Written at exit, so that the cache also holds the functions this run compiled lazily.
    process.once('exit', () => {
      for (const write of writes) {
        try {
          write();
        } catch {
          // A cache that cannot be written is only a slower next start.
        }
      }
    });
  } catch {
    // Whatever is not loaded yet, Node loads the usual way.
  }
}

/** Runs the CommonJS file `file` as Node would, compiled from the cache when it holds this exact file. */
function loadCached(file: string, dir: string, writes: Array<() => void>, variant: string | undefined): void {
  const require = createRequire(file);
  if (require.cache[file]) return;
  const { bytes, fingerprint } = readWithFingerprint(file);
  // Named for the installed file: a cache file is only ever valid for one path.
  const cacheFile = join(dir, `${basename(file)}-${crc32(file).toString(16)}${variant ? `-${variant}` : ''}.cache`);
  const cached = readCache(cacheFile, fingerprint);
  // A source found pure ASCII when the cache was made decodes exactly as latin1, which
  // copies bytes instead of validating UTF-8 (a few ms for TypeScript's 9 MB).
  const encoding = cached?.ascii ? 'latin1' : 'utf8';
  const deferred = basename(file) === libFilesModule ? deferLibFiles(bytes, encoding) : undefined;
  const source = deferred?.source ?? bytes.toString(encoding);
  const parameters = ['exports', 'require', 'module', '__filename', '__dirname', ...(deferred?.libFiles ? [deferred.parameter] : [])];
  const cachedData = cached?.data;
  const script = new Script(`(function (${parameters.join(', ')}) { ${source}\n});`, {
    filename: file,
    cachedData,
    importModuleDynamically: vmConstants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const mod = new nodeModule.Module(file);
  mod.filename = file;
  require.cache[file] = mod;
  try {
    (script.runInThisContext() as ModuleWrapper).call(mod.exports, mod.exports, require, mod, file, dirname(file), deferred?.libFiles);
  } catch (error) {
    delete require.cache[file];
    throw error;
  }
  mod.loaded = true;
  if (!cachedData || script.cachedDataRejected) {
    writes.push(() => {
      mkdirSync(dir, { recursive: true });
      const temp = `${cacheFile}.${process.pid}`;
      const ascii = Buffer.byteLength(source) === source.length;
      try {
        writeFileSync(temp, Buffer.concat([fingerprint, Buffer.of(ascii ? 1 : 0), script.createCachedData()]));
        renameSync(temp, cacheFile);
      } finally {
        rmSync(temp, { force: true });
      }
    });
  }
}

type ModuleWrapper = (exports: unknown, require: NodeJS.Require, module: NodeJS.Module, filename: string, dirname: string, libFiles?: () => unknown) => void;

/**
 * The file's bytes, and what identifies this version of it: size, modification and change
 * times, inode and device, from the descriptor it is read through. Checksumming 13 MB on
 * every run would cost more; a reinstalled package is a new file with a new change time
 * (npm gives every file the same modification time, but cannot set the change time).
 */
function readWithFingerprint(file: string): { bytes: Buffer; fingerprint: Buffer } {
  const fd = openSync(file, 'r');
  try {
    const stats = fstatSync(fd, { bigint: true });
    const fingerprint = Buffer.alloc(40);
    [stats.size, stats.mtimeNs, stats.ctimeNs, stats.ino, stats.dev].forEach((value, i) => fingerprint.writeBigUInt64LE(BigInt.asUintN(64, value), i * 8));
    return { bytes: readFileSync(fd), fingerprint };
  } finally {
    closeSync(fd);
  }
}

/** The cached code of the file `fingerprint` identifies, if the cache file holds it, and whether its source was ASCII. */
function readCache(cacheFile: string, fingerprint: Buffer): { data: Buffer; ascii: boolean } | undefined {
  let data: Buffer;
  try {
    data = readFileSync(cacheFile);
  } catch {
    return undefined;
  }
  const start = fingerprint.length + 1;
  if (data.length <= start || !data.subarray(0, fingerprint.length).equals(fingerprint)) return undefined;
  return { data: data.subarray(start), ascii: data[fingerprint.length] === 1 };
}
