import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { cliVersion } from '../../src/version.js';
import { cleanUp, opgen, projectDir, readTree } from './run.js';

// What a kubebuilder user types on day one, and what they get.

const opgenBin = fileURLToPath(new URL('../../bin/opgen.js', import.meta.url));

let dir: string | undefined;
afterEach(async () => {
  if (dir) await cleanUp(dir);
  dir = undefined;
});

describe('a command without its sub-command', () => {
  it('bare opgen prints the help on stdout and exits 0', async () => {
    const result = await opgen(process.cwd());
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/^Usage: opgen \[options\] \[command\]/);
    expect(result.stdout).toContain('create');
  });

  it('opgen create prints its help and exits 0', async () => {
    const result = await opgen(process.cwd(), 'create');
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/^Usage: opgen create \[options\] \[command\]/);
    expect(result.stdout).toContain('api [options]');
  });

  it('help piped into a reader that stops early (| head -1) exits 0 without a stack trace', async () => {
    // The reading end is closed before opgen writes, so every write fails with EPIPE.
    const child = spawn(process.execPath, [opgenBin, 'create', 'api', '--help'], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const [code] = (await once(child, 'close')) as [number];
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  });

  it.each([['--version'], ['-V']])('opgen %s prints the version', async (flag) => {
    const result = await opgen(process.cwd(), flag);
    expect(result).toEqual({ code: 0, stdout: `${cliVersion}\n`, stderr: '' });
  });

  it('--version after create api is still the API version', async () => {
    dir = await projectDir('demo-volume-operator');
    expect((await opgen(dir, 'init', '--domain', 'civo.com', '--skip-install')).code).toBe(0);
    const result = await opgen(dir, 'create', 'api', '--group', 'storage', '--version', 'v1', '--kind', 'DemoVolume', '--verbose');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(await readFile(join(dir, 'src/api/v1/demovolume_types.ts'), 'utf8')).toContain('export interface DemoVolume ');
  });
});

describe('init in a repository freshly made on a forge', () => {
  it('keeps README.md and LICENSE and merges its lines into .gitignore', async () => {
    dir = await projectDir('demo-volume-operator');
    await mkdir(join(dir, '.git'));
    await writeFile(join(dir, 'README.md'), '# demo-volume-operator\n\nOur operator.\n');
    await writeFile(join(dir, 'LICENSE'), 'MIT License\n');
    await writeFile(join(dir, '.gitignore'), '# Ours\nnode_modules/\n.idea/\n');

    const result = await opgen(dir, 'init', '--domain', 'civo.com', '--skip-install');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/UPDATE \.gitignore/);
    expect(result.stdout).not.toMatch(/README\.md/);

    const tree = await readTree(dir);
    expect(tree.get('README.md')).toBe('# demo-volume-operator\n\nOur operator.\n');
    expect(tree.get('LICENSE')).toBe('MIT License\n');
    const gitignore = tree.get('.gitignore')!;
    expect(gitignore.startsWith('# Ours\nnode_modules/\n.idea/\n\n# Added by opgen init\n')).toBe(true);
    expect(gitignore.match(/^node_modules\/$/gm)).toHaveLength(1);
    for (const pattern of ['dist/*', '!dist/install.yaml', '*.kubeconfig', '.env']) expect(gitignore.split('\n')).toContain(pattern);
    expect(tree.has('PROJECT')).toBe(true);
    expect(tree.has('src/main.ts')).toBe(true);
  });
});
