import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { cpSync, existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { copyFixture } from './run.js';

// `opgen manifests --watch` on the built binary, as a user runs it; files are saved the way
// editors do (in place, or a new file renamed over the old). Needs `npm run build` first.

const bin = fileURLToPath(new URL('../../bin/opgen.js', import.meta.url));
const run = promisify(execFile);
const crdPath = 'config/crd/bases/storage.example.com_demovolumes.yaml';
const typesPath = 'src/api/v1/demovolume_types.ts';
const scratch: string[] = [];
const running: ChildProcess[] = [];

beforeAll(() => {
  if (!existsSync(fileURLToPath(new URL('../../dist/cli.js', import.meta.url)))) throw new Error('run npm run build first');
});
afterEach(() => {
  for (const child of running.splice(0)) child.kill('SIGKILL');
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
});

interface Watch {
  child: ChildProcess;
  /** Resolves with everything printed since the last call once it matches `pattern`. */
  until(pattern: RegExp): Promise<string>;
  exited: Promise<number | null>;
}

/** Starts `opgen manifests --watch` in `project` and waits until it watches. */
async function startWatch(project: string): Promise<Watch> {
  const child = spawn('node', [bin, 'manifests', '--watch', '--dir', project], { env: { ...process.env, NO_COLOR: '1' } });
  running.push(child);
  let output = '';
  let seen = 0;
  let waiting: (() => void) | undefined;
  const append = (chunk: Buffer) => {
    output += String(chunk);
    waiting?.();
  };
  child.stdout!.on('data', append);
  child.stderr!.on('data', append);
  // 'close', not 'exit': it comes once everything printed has been read.
  const exited = new Promise<number | null>((done) => child.on('close', (code) => done(code)));
  const until = (pattern: RegExp) =>
    new Promise<string>((done, fail) => {
      const check = () => {
        const fresh = output.slice(seen);
        if (pattern.test(fresh)) {
          seen = output.length;
          waiting = undefined;
          done(fresh);
        }
      };
      waiting = check;
      void exited.then(() => {
        check();
        fail(new Error(`opgen exited before printing ${pattern}; it printed:\n${output}`));
      });
      check();
    });
  await until(/watching src\/ for changes/);
  return { child, until, exited };
}

function project(): string {
  const dir = copyFixture('demovolume');
  scratch.push(dir);
  return dir;
}

/** The types file with one more spec field. */
function withField(text: string, field: string): string {
  return text.replace('  size: int32;\n', `  size: int32;\n\n  /** ${field} added while watching. */\n  ${field}?: string;\n`);
}

/** What a fresh `opgen manifests` writes for the same sources. */
async function freshCrd(watched: string): Promise<string> {
  const copy = project();
  cpSync(join(watched, 'src'), join(copy, 'src'), { recursive: true });
  await run('node', [bin, 'manifests', '--dir', copy]);
  return readFileSync(join(copy, crdPath), 'utf8');
}

describe('opgen manifests --watch', () => {
  it('regenerates on a save, in place or by rename, and prints what changed', async () => {
    const dir = project();
    const watch = await startWatch(dir);
    const types = join(dir, typesPath);
    const original = readFileSync(types, 'utf8');

    writeFileSync(types, withField(original, 'label'));
    expect(await watch.until(/regenerated in \d+ ms/)).toContain(`UPDATE ${crdPath}`);
    expect(readFileSync(join(dir, crdPath), 'utf8')).toContain('label:');

    // Editors like vim write a new file and rename it over the old one.
    writeFileSync(`${types}.swp`, withField(withField(original, 'label'), 'zone'));
    renameSync(`${types}.swp`, types);
    expect(await watch.until(/regenerated in \d+ ms/)).toContain(`UPDATE ${crdPath}`);
    expect(readFileSync(join(dir, crdPath), 'utf8')).toBe(await freshCrd(dir));
    expect(readFileSync(join(dir, crdPath), 'utf8')).toContain('zone:');
  });

  it('prints the located error of a bad save, keeps the last good files and recovers on the next good save', async () => {
    const dir = project();
    const watch = await startWatch(dir);
    const types = join(dir, typesPath);
    const original = readFileSync(types, 'utf8');
    const good = readFileSync(join(dir, crdPath), 'utf8');

    writeFileSync(types, withField(original, 'label').replace('label?: string', 'label?: Date'));
    const printed = await watch.until(/kept the last good files/);
    expect(printed).toMatch(/^src\/api\/v1\/demovolume_types\.ts:\d+:\d+: error: /m);
    expect(readFileSync(join(dir, crdPath), 'utf8')).toBe(good);

    writeFileSync(types, withField(original, 'label'));
    expect(await watch.until(/regenerated in \d+ ms/)).toContain(`UPDATE ${crdPath}`);
    expect(readFileSync(join(dir, crdPath), 'utf8')).toBe(await freshCrd(dir));
  });

  it('picks up a new kind file', async () => {
    const dir = project();
    const watch = await startWatch(dir);
    const text = readFileSync(join(dir, typesPath), 'utf8')
      .replaceAll('DemoVolume', 'Snapshot')
      .replaceAll('demovolumes', 'snapshots');
    writeFileSync(join(dir, 'src/api/v1/snapshot_types.ts'), text);
    expect(await watch.until(/regenerated in \d+ ms/)).toContain('CREATE config/crd/bases/storage.example.com_snapshots.yaml');
    expect(existsSync(join(dir, 'config/crd/bases/storage.example.com_snapshots.yaml'))).toBe(true);
  });

  it('exits cleanly on SIGINT', async () => {
    const watch = await startWatch(project());
    watch.child.kill('SIGINT');
    expect(await watch.until(/stopped watching/)).toBeTruthy();
    expect(await watch.exited).toBe(0);
  });

  it('exits cleanly on SIGINT in the middle of a regeneration', async () => {
    const dir = project();
    const watch = await startWatch(dir);
    const types = join(dir, typesPath);
    writeFileSync(types, withField(readFileSync(types, 'utf8'), 'label'));
    await new Promise((done) => setTimeout(done, 30)); // past the settling delay: the regeneration has begun
    watch.child.kill('SIGINT');
    expect(await watch.until(/stopped watching/)).toBeTruthy();
    expect(await watch.exited).toBe(0);
  });

  it('refuses --watch with --check', async () => {
    const result = await run('node', [bin, 'manifests', '--watch', '--check', '--dir', project()]).catch((e: { code: number; stderr: string }) => e);
    expect(result).toMatchObject({ code: 1, stderr: expect.stringContaining('--watch and --check cannot be used together') });
  });
});
