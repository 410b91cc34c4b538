import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { cleanUp, opgen, readTree } from '../scaffold/run.js';
import { copyExample, repo } from './project.js';

// The bundles of two seed examples, byte for byte. UPDATE_GOLDEN=1 rewrites them; read the diff.

const fixtures = join(repo, 'test/fixtures/bundle');
let dir: string | undefined;
afterEach(async () => {
  if (dir) await cleanUp(dir);
  dir = undefined;
});

/** What `opgen bundle` writes: bundle/, bundle.Dockerfile and the base CSV. */
async function written(root: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const [path, content] of await readTree(join(root, 'bundle'))) files.set(`bundle/${path}`, content);
  files.set('bundle.Dockerfile', await readFile(join(root, 'bundle.Dockerfile'), 'utf8'));
  for (const [path, content] of await readTree(join(root, 'config/manifests'))) files.set(`config/manifests/${path}`, content);
  return files;
}

describe('opgen bundle --dry-run', () => {
  it('prints what it would write and writes nothing', async () => {
    dir = await copyExample('podset');
    const result = await opgen(dir, 'bundle', '--dry-run');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('CREATE bundle/manifests/podset.clusterserviceversion.yaml\n');
    expect(result.stdout).toContain('CREATE config/manifests/bases/podset.clusterserviceversion.yaml\n');
    expect(result.stdout.endsWith('(dry run: nothing was written)\n')).toBe(true);
    expect(existsSync(join(dir, 'bundle'))).toBe(false);
    expect(existsSync(join(dir, 'config/manifests'))).toBe(false);
  });
});

describe.each([
  ['podset', ['bundle', '--version', '0.1.0']],
  ['bookstore', ['bundle', '--version', '1.2.3', '--channels', 'stable,alpha', '--default-channel', 'stable', '--image', 'ghcr.io/example/bookstore:1.2.3']],
])('opgen bundle on the %s example', (name, args) => {
  it('writes the golden bundle, and nothing on a second run', async () => {
    dir = await copyExample(name);
    const first = await opgen(dir, ...args);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const files = await written(dir);
    const golden = join(fixtures, name);
    if (process.env.UPDATE_GOLDEN) {
      await rm(golden, { recursive: true, force: true });
      for (const [path, content] of files) {
        await mkdir(dirname(join(golden, path)), { recursive: true });
        await writeFile(join(golden, path), content);
      }
    }
    expect(existsSync(golden)).toBe(true);
    expect(Object.fromEntries(files)).toEqual(Object.fromEntries(await readTree(golden)));

    const second = await opgen(dir, ...args);
    expect(second).toEqual({ code: 0, stdout: 'bundle is up to date\n', stderr: '' });
    const validated = await opgen(dir, 'bundle', 'validate');
    expect(validated.code).toBe(0);
    expect(validated.stdout).toBe('bundle: the bundle is valid\n');
  });
});

describe('owned resources', () => {
  it('are left to the base CSV in an operator of two kinds, whose RBAC does not say which creates what', async () => {
    dir = await copyExample('echo');
    expect((await opgen(dir, 'bundle')).code).toBe(0);
    const csv = parse(await readFile(join(dir, 'bundle/manifests/echoperator.clusterserviceversion.yaml'), 'utf8'));
    const owned = csv.spec.customresourcedefinitions.owned as { kind: string; resources?: unknown }[];
    expect(owned.map((o) => [o.kind, o.resources])).toEqual([
      ['Echo', undefined],
      ['ScheduledEcho', undefined],
    ]);
  });
});
