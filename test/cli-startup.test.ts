import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { program } from '../src/cli.js';
import { commandSummaries } from '../src/command-summaries.js';
import { opgen } from './scaffold/run.js';

// `opgen --help` lists every command from src/command-summaries.ts and `opgen version` runs
// alone, so neither loads the other commands nor TypeScript. Needs `npm run build` first.

const bin = fileURLToPath(new URL('../bin/opgen.js', import.meta.url));
const run = promisify(execFile);
let scratch: string;

beforeAll(() => {
  if (!existsSync(fileURLToPath(new URL('../dist/cli.js', import.meta.url)))) throw new Error('run npm run build first');
  scratch = mkdtempSync(join(tmpdir(), 'opgen-startup-'));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * Every file the built CLI loads for `args`: ES modules through a loader hook, CommonJS
 * through Module._load (TypeScript and ts-morph are required, not imported).
 */
async function loadedFiles(...args: string[]): Promise<string[]> {
  const log = join(scratch, `loaded-${args.join('-').replace(/\W+/g, '-')}.txt`);
  const hooks = join(scratch, 'hooks.mjs');
  writeFileSync(
    hooks,
    `import { appendFileSync } from 'node:fs';\n` +
      `export async function load(url, context, next) { appendFileSync(process.env.LOADED_LOG, url + '\\n'); return next(url, context); }\n`,
  );
  const preload = join(scratch, 'preload.mjs');
  writeFileSync(
    preload,
    `import { register, default as Module } from 'node:module';\nimport { appendFileSync } from 'node:fs';\n` +
      `register(${JSON.stringify(pathToFileURL(hooks).href)});\n` +
      `const load = Module._load;\n` +
      `Module._load = function (request, parent, isMain) { appendFileSync(process.env.LOADED_LOG, 'require:' + request + '\\n'); return load.apply(this, arguments); };\n`,
  );
  writeFileSync(log, '');
  await run('node', ['--import', pathToFileURL(preload).href, bin, ...args], { env: { ...process.env, LOADED_LOG: log } });
  return readFileSync(log, 'utf8').split('\n').filter(Boolean);
}

describe('start-up', () => {
  it('summarises every command as the command itself describes it', async () => {
    const cli = await program();
    const help = cli.createHelp();
    const actual = cli.commands.map((c) => ({ name: c.name(), term: help.subcommandTerm(c), description: c.description() }));
    expect(commandSummaries).toEqual(actual);
  });

  it('prints the same --help as with every command loaded', async () => {
    const full = (await program()).helpInformation();
    const { code, stdout } = await opgen(process.cwd(), '--help');
    expect(code).toBe(0);
    expect(stdout).toBe(full);
  });

  it('shows the full help of one command through opgen help <command>', async () => {
    const { stdout } = await opgen(process.cwd(), 'help', 'manifests');
    expect(stdout).toContain('--max-desc-len');
  });

  // The CLI is one bundle (scripts/bundle-cli.js); a command's modules run only when it does.
  // Without a command, the program's shell alone: the bundle without the commands.
  it.each([
    ['--help', 'opgen/help.cjs'],
    ['--version', 'opgen/help.cjs'],
    ['version', 'opgen/cli.cjs'],
  ])('opgen %s loads no TypeScript, and nothing of opgen but %s', async (arg, bundle) => {
    const loaded = await loadedFiles(arg);
    const opgenFiles = loaded.filter((f) => /\/dist\//.test(f)).map((f) => f.replace(/^.*\/dist\//, ''));
    expect(opgenFiles).toEqual(['compile-cache.js', 'lazy-lib-files.js', bundle]);
    expect(loaded.filter((f) => /typescript|ts-morph|handlebars/.test(f))).toEqual([]);
  });

  it('opgen manifests loads its own bundle, not the CLI with every command', async () => {
    const project = mkdtempSync(join(scratch, 'manifests-'));
    writeFileSync(join(project, 'PROJECT'), 'version: "3"\nlayout:\n- typescript.opgen.dev/v1\ndomain: example.com\nprojectName: demo\nresources: []\n');
    const loaded = await loadedFiles('manifests', '--dir', project);
    const opgenFiles = loaded.filter((f) => /\/dist\/opgen\//.test(f)).map((f) => f.replace(/^.*\/dist\//, ''));
    expect(opgenFiles).toEqual(['opgen/manifests.cjs']);
  });

  it('the bundled CLI finds its package.json and templates, and --verbose traces a bug back to src/', async () => {
    const version = await run('node', [bin, 'version']);
    expect(version.stdout).toBe(`opgen ${JSON.parse(readFileSync(fileURLToPath(new URL('../package.json', import.meta.url)), 'utf8')).version} (node ${process.versions.node})\n`);
    const dir = mkdtempSync(join(scratch, 'init-'));
    await run('node', [bin, 'init', '--domain', 'example.com', '--project-name', 'demo', '--skip-install'], { cwd: dir });
    expect(readFileSync(join(dir, 'PROJECT'), 'utf8')).toContain('domain: example.com');
    const failed = await run('node', [bin, 'manifests', '--verbose'], { cwd: scratch }).catch((error: { stderr: string }) => error);
    expect(failed.stderr).toMatch(/\(.*\/src\/project\/load\.ts:\d+:\d+\)/);
  });

  // Pure ASCII, the compile cache decodes a bundle as latin1 (a copy) instead of as UTF-8.
  it.each(['cli.cjs', 'help.cjs', 'manifests.cjs'])('the bundle %s is pure ASCII', (name) => {
    const bundle = readFileSync(fileURLToPath(new URL(`../dist/opgen/${name}`, import.meta.url)), 'latin1');
    expect(bundle.match(/.*[^\0-\x7f].*/g) ?? []).toEqual([]);
  });

  it.each(['cli.cjs', 'help.cjs', 'manifests.cjs'])('the bundle %s has no dynamic import(), which fails in code run from the compile cache', (name) => {
    const bundle = readFileSync(fileURLToPath(new URL(`../dist/opgen/${name}`, import.meta.url)), 'utf8');
    // Comments may name import() (re2js's JSDoc types do); code may not.
    const code = (bundle.match(/.*\bimport\(.*/g) ?? []).filter((line) => !/^\s*(\*|\/\/|\/\*)/.test(line));
    expect(code).toEqual([]);
  });
});
