import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cliVersion } from '../../src/version.js';
import { cleanUp, opgen, projectDir, readTree } from './run.js';

// What a kubebuilder user types on day one, and what they get.

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
