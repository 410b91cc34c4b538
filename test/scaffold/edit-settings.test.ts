import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanUp, opgen, projectDir, readTree } from './run.js';

// kubebuilder's `edit --multigroup[=false]` and `edit --namespaced[=false]`, and `init
// --namespaced[=false]` in the same form.

let dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs) await cleanUp(dir);
  dirs = [];
});

async function project(name: string, initFlags: string[], ...kinds: string[][]): Promise<string> {
  const dir = await projectDir(name);
  dirs.push(dir);
  expect((await opgen(dir, 'init', '--domain', 'example.com', '--skip-install', ...initFlags)).code).toBe(0);
  for (const kind of kinds) expect((await opgen(dir, 'create', 'api', ...kind)).stderr).toBe('');
  return dir;
}

async function ok(dir: string, ...args: string[]): Promise<string> {
  const result = await opgen(dir, ...args);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return result.stdout;
}

const bookStore = ['--group', 'shop', '--version', 'v1', '--kind', 'BookStore'];

describe('opgen init --namespaced[=bool]', () => {
  it.each([
    ['--namespaced=true', ['--namespaced']],
    ['--namespaced=false', []],
  ])('%s makes what init %j makes', async (flag, same) => {
    const given = await project('shop-operator', [flag], bookStore);
    const expected = await project('shop-operator', same, bookStore);
    expect(await readTree(given)).toEqual(await readTree(expected));
    // The project's own setting, at the top level (each kind records its scope too).
    expect(/^namespaced: true$/m.test(await readFile(join(given, 'PROJECT'), 'utf8'))).toBe(flag.endsWith('true'));
  });
});

describe('opgen edit --namespaced', () => {
  it('turns a cluster-wide project into exactly what init --namespaced would have made, and back', async () => {
    const cluster = await project('shop-operator', [], bookStore);
    const namespaced = await project('shop-operator', ['--namespaced'], bookStore);
    await ok(cluster, 'manifests');
    await ok(namespaced, 'manifests');
    const clusterTree = await readTree(cluster);

    const stdout = await ok(cluster, 'edit', '--namespaced');
    expect(stdout).toMatch(/^UPDATE src\/main\.ts$/m);
    expect(stdout).toMatch(/^UPDATE config\/manager\/manager\.yaml$/m);
    expect(stdout).toContain('Next: npm run manifests');
    await ok(cluster, 'manifests');
    expect(await readTree(cluster)).toEqual(await readTree(namespaced));

    await ok(cluster, 'edit', '--namespaced=false');
    await ok(cluster, 'manifests');
    expect(await readTree(cluster)).toEqual(clusterTree);
  });

  it('keeps a file the user changed and says so', async () => {
    const dir = await project('shop-operator', [], bookStore);
    const main = join(dir, 'src/main.ts');
    const mine = `${await readFile(main, 'utf8')}// mine\n`;
    await writeFile(main, mine);
    const stdout = await ok(dir, 'edit', '--namespaced');
    expect(stdout).toContain('kept src/main.ts: you changed it; make it fit --namespaced=true yourself');
    expect(await readFile(main, 'utf8')).toBe(mine);
    expect(await readFile(join(dir, 'PROJECT'), 'utf8')).toMatch(/^namespaced: true$/m);
  });

  it('refuses when a kind is cluster-scoped, writing nothing', async () => {
    const dir = await project('shop-operator', [], ['--group', 'shop', '--version', 'v1', '--kind', 'Catalog', '--namespaced=false']);
    const before = await readTree(dir);
    const result = await opgen(dir, 'edit', '--namespaced');
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'PROJECT: error: --namespaced: Catalog (shop.example.com/v1) is cluster-scoped, which an operator with rights in one namespace cannot serve\n',
    );
    expect(await readTree(dir)).toEqual(before);
  });
});

describe('opgen edit --plugins multicluster', () => {
  const widget = ['--group', 'shop', '--version', 'v1', '--kind', 'Widget'];
  const rbacKustomization = 'config/rbac/kustomization.yaml';

  it('turns a project with a kind into what init --multicluster would have made; again changes nothing', async () => {
    const single = await project('fleet-operator', [], widget);
    const fleet = await project('fleet-operator', ['--multicluster'], widget);

    const stdout = await ok(single, 'edit', '--plugins', 'multicluster');
    expect(stdout).toMatch(/^UPDATE src\/main\.ts$/m);
    expect(stdout).toMatch(/^CREATE config\/rbac\/kubeconfig_secret_reader_role\.yaml$/m);
    expect(stdout).toMatch(/^UPDATE src\/controllers\/widget_controller\.test\.ts$/m);
    const [edited, made] = [await readTree(single), await readTree(fleet)];
    // The kind's roles were listed before the Secret reader was added.
    expect(parse(edited.get(rbacKustomization)!).resources.toSorted()).toEqual(parse(made.get(rbacKustomization)!).resources.toSorted());
    edited.delete(rbacKustomization);
    made.delete(rbacKustomization);
    expect(edited).toEqual(made);

    await ok(single, 'edit', '--plugins', 'multicluster');
    expect((await readTree(single)).get('src/main.ts')).toBe(made.get('src/main.ts'));
  });

  it('keeps a src/main.ts the user changed and says so; refuses a namespaced project', async () => {
    const dir = await project('fleet-operator', [], widget);
    const main = join(dir, 'src/main.ts');
    await writeFile(main, `${await readFile(main, 'utf8')}// mine\n`);
    const stdout = await ok(dir, 'edit', '--plugins', 'multicluster');
    expect(stdout).toContain('kept src/main.ts: you changed it since opgen wrote it; make it fit --plugins multicluster yourself');
    expect(await readFile(main, 'utf8')).toMatch(/\/\/ mine\n$/);

    const namespaced = await project('shop-operator', ['--namespaced'], widget);
    const before = await readTree(namespaced);
    const refused = await opgen(namespaced, 'edit', '--plugins', 'multicluster');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^error: --plugins multicluster: an operator of many clusters \(--multicluster\) does not watch one namespace/);
    expect(await readTree(namespaced)).toEqual(before);
  });
});

describe('opgen edit --namespaced on an operator of many clusters', () => {
  it('refuses, writing nothing: the fleet\'s rights are its kubeconfig Secrets\'', async () => {
    const dir = await project('fleet-operator', ['--multicluster'], ['--group', 'shop', '--version', 'v1', '--kind', 'Widget']);
    const before = await readTree(dir);
    const result = await opgen(dir, 'edit', '--namespaced');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: --namespaced: an operator of many clusters \(--multicluster\) does not watch one namespace/);
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(await readTree(dir)).toEqual(before);
  });
});

describe('opgen edit --multigroup', () => {
  it('records multigroup; the next kind of another group goes under src/api/<group>/<version>', async () => {
    const dir = await project('shop-operator', [], bookStore);
    const refused = await opgen(dir, 'create', 'api', '--group', 'blog', '--version', 'v1', '--kind', 'Post');
    expect(refused.code).toBe(1);

    const stdout = await ok(dir, 'edit', '--multigroup');
    expect(stdout).toMatch(/^UPDATE PROJECT$/m);
    expect(stdout).toContain("The kinds you have stay where PROJECT's path says; new kinds go to src/api/<group>/<version>/.");
    expect(await readFile(join(dir, 'PROJECT'), 'utf8')).toMatch(/^multigroup: true$/m);
    await ok(dir, 'create', 'api', '--group', 'blog', '--version', 'v1', '--kind', 'Post');
    const tree = await readTree(dir);
    expect(tree.has('src/api/blog/v1/post_types.ts')).toBe(true);
    expect(tree.has('src/api/v1/bookstore_types.ts')).toBe(true);
  });

  it('--multigroup=false refuses while two groups are there, and works with one', async () => {
    const dir = await project('shop-operator', ['--multigroup'], bookStore, ['--group', 'blog', '--version', 'v1', '--kind', 'Post']);
    const before = await readTree(dir);
    const result = await opgen(dir, 'edit', '--multigroup=false');
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'PROJECT: error: --multigroup=false: the project holds the groups shop.example.com, blog.example.com; one group fits in a project that is not multigroup\n',
    );
    expect(await readTree(dir)).toEqual(before);

    const single = await project('blog-operator', ['--multigroup'], ['--group', 'blog', '--version', 'v1', '--kind', 'Post']);
    await ok(single, 'edit', '--multigroup=false');
    expect(await readFile(join(single, 'PROJECT'), 'utf8')).not.toContain('multigroup');
  });

  it('edit with nothing to do is an error', async () => {
    const dir = await project('shop-operator', []);
    const result = await opgen(dir, 'edit');
    expect(result).toMatchObject({ code: 1, stderr: 'error: nothing to edit (pass --plugins, --multigroup, --namespaced or --webhook-certificates; see opgen edit --help)\n' });
  });
});
