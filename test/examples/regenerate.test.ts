import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * Each seed example must be exactly what opgen generates from the commands in its README,
 * plus the files a user writes by hand: types, controllers, samples, tests and the README.
 */
const repo = fileURLToPath(new URL('../../', import.meta.url));
const examplesDir = join(repo, 'examples');
const seeds = ['bookstore', 'demo-volume', 'echo', 'ovh-nginx', 'podset'];
const ignored = new Set(['node_modules', 'dist', 'package-lock.json']);
// Sample CRs are written once, then the user's to edit, as in kubebuilder.
const handWritten = [/^src\/api\/.*_types\.ts$/, /^src\/controllers\//, /^config\/samples\/(?!kustomization\.yaml$)/, /^test\//, /^README\.md$/];

const scratch = mkdtempSync(join(tmpdir(), 'opgen-regenerate-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The `opgen …` lines between the README's `<!-- opgen:commands -->` markers. */
function commandsOf(readme: string): string[] {
  const block = /<!-- opgen:commands -->([\s\S]*?)<!-- \/opgen:commands -->/.exec(readme)?.[1] ?? '';
  return block.split('\n').map((line) => line.trim()).filter((line) => line.startsWith('opgen '));
}

function files(root: string, dir = root): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (ignored.has(entry.name)) return [];
    const path = join(dir, entry.name);
    return entry.isDirectory() ? files(root, path) : [relative(root, path)];
  });
}

/** A PATH entry whose `opgen` is this checkout's built CLI, as a user's shell would find it. */
function opgenShim(): string {
  const bin = join(scratch, 'bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'opgen'), `#!/bin/sh\nexec node "${join(repo, 'bin/opgen.js')}" "$@"\n`);
  chmodSync(join(bin, 'opgen'), 0o755);
  return bin;
}

describe('seed examples', () => {
  it('are all present', () => {
    const present = readdirSync(examplesDir).filter((name) => existsSync(join(examplesDir, name, 'README.md')));
    expect(present.sort()).toEqual(seeds);
  });

  const bin = opgenShim();
  it.each(seeds)('%s is its README commands plus its hand-written files', (name) => {
    const example = join(examplesDir, name);
    const commands = commandsOf(readFileSync(join(example, 'README.md'), 'utf8'));
    expect(commands.length, 'README lists its opgen commands').toBeGreaterThan(1);

    // Same folder name as the example: `init` takes the project name from it by default.
    const regenerated = join(scratch, name);
    mkdirSync(regenerated);
    const env = { ...process.env, PATH: `${bin}:${process.env.PATH}`, NO_COLOR: '1' };
    execFileSync('bash', ['-euo', 'pipefail', '-c', commands.join('\n')], { cwd: regenerated, env, stdio: 'pipe' });
    for (const file of files(example).filter((f) => handWritten.some((re) => re.test(f)))) {
      mkdirSync(dirname(join(regenerated, file)), { recursive: true });
      cpSync(join(example, file), join(regenerated, file));
    }
    execFileSync('bash', ['-c', 'opgen manifests'], { cwd: regenerated, env, stdio: 'pipe' });

    expect(files(regenerated).sort()).toEqual(files(example).sort());
    const differing = files(example).filter(
      (file) => readFileSync(join(example, file), 'utf8') !== readFileSync(join(regenerated, file), 'utf8'),
    );
    expect(differing, 'files that differ from what opgen generates').toEqual([]);
  });
});
