import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { Command } from 'commander';
import { program } from '../../src/cli.js';
import { cliVersion } from '../../src/version.js';
import { cleanUp, opgen, opgenOk, projectDir, readTree } from './run.js';

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

describe('the same flags on every command', () => {
  // What each command does, hence which of the shared flags it must take: --dir where it reads
  // or writes a project, --dry-run where it writes anything, --kubeconfig and --context where
  // it talks to a cluster (dev talks to its own memory cluster unless --context names one).
  const expected: Record<string, string[]> = {
    init: ['--dir', '--dry-run'],
    'create api': ['--dir', '--dry-run'],
    'create webhook': ['--dir', '--dry-run'],
    manifests: ['--dir', '--dry-run'],
    edit: ['--dir', '--dry-run'],
    dev: ['--dir', '--context'],
    'import crd': ['--dir', '--dry-run'],
    'delete api': ['--dir', '--dry-run'],
    install: ['--dir', '--dry-run', '--kubeconfig', '--context'],
    uninstall: ['--dir', '--dry-run', '--kubeconfig', '--context'],
    deploy: ['--dir', '--dry-run', '--kubeconfig', '--context'],
    undeploy: ['--dir', '--dry-run', '--kubeconfig', '--context'],
    'build-installer': ['--dir', '--dry-run'],
    upgrade: ['--dir', '--dry-run'],
    'alpha generate': ['--dir', '--dry-run'],
    'bundle validate': [],
    scorecard: ['--kubeconfig', '--context'],
    'setup-envtest': [],
    'migrate-storage': ['--dir', '--dry-run', '--kubeconfig', '--context'],
    version: [],
  };
  const shared = ['--dir', '--dry-run', '--kubeconfig', '--context'];

  it('each command takes the shared flags its work needs, with one meaning', async () => {
    const found: Record<string, string[]> = {};
    const walk = (command: Command, path: string[]) => {
      if (command.commands.length === 0) found[path.join(' ')] = shared.filter((flag) => command.options.some((o) => o.long === flag));
      for (const sub of command.commands) walk(sub, [...path, sub.name()]);
    };
    for (const command of (await program()).commands) walk(command, [command.name()]);
    expect(found).toEqual(expected);
    const descriptions = new Set<string>();
    for (const command of (await program()).commands.flatMap((c) => [c, ...c.commands])) {
      for (const o of command.options) if (o.long === '--kubeconfig') descriptions.add(o.description);
    }
    expect([...descriptions]).toEqual(['the kubeconfig to use instead of $KUBECONFIG or ~/.kube/config']);
  });

  it('--dir scaffolds and works on a project from another directory, and init says where to go next', async () => {
    dir = await projectDir('elsewhere');
    const init = await opgenOk(dir, 'init', '--domain', 'example.com', '--dir', 'shop-operator', '--skip-install');
    expect(init).toContain('  $ cd shop-operator\n  $ opgen create api');
    await opgenOk(dir, 'create', 'api', '--group', 'shop', '--version', 'v1', '--kind', 'Order', '--dir', 'shop-operator');
    await opgenOk(dir, 'create', 'webhook', '--group', 'shop', '--version', 'v1', '--kind', 'Order', '--defaulting', '--dir', 'shop-operator');
    expect([...(await readTree(dir)).keys()].every((path) => path.startsWith('shop-operator/')), 'nothing written outside --dir').toBe(true);
    const project = await readFile(join(dir, 'shop-operator/PROJECT'), 'utf8');
    expect(project).toContain('projectName: shop-operator');
    expect(project).toContain('kind: Order');
    expect(await readFile(join(dir, 'shop-operator/src/api/v1/order_types.ts'), 'utf8')).toContain('export interface Order ');
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
