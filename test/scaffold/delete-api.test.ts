import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanUp, opgen, projectDir, readTree } from './run.js';

// `opgen delete api`: the inverse of `create api` + `manifests` (kubebuilder issue 907).

let dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs) await cleanUp(dir);
  dirs = [];
});

async function ok(dir: string, ...args: string[]): Promise<string> {
  const result = await opgen(dir, ...args);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return result.stdout;
}

async function project(name: string, ...initFlags: string[]): Promise<string> {
  const dir = await projectDir(name);
  dirs.push(dir);
  await ok(dir, 'init', '--domain', 'example.com', '--skip-install', ...initFlags);
  return dir;
}

const bookStore = ['--group', 'shop', '--version', 'v1', '--kind', 'BookStore'];

describe('opgen delete api', () => {
  it('after create api and manifests, leaves the project exactly as init and manifests made it', async () => {
    const fresh = await project('shop-operator');
    await ok(fresh, 'manifests');
    const dir = await project('shop-operator');
    await ok(dir, 'create', 'api', ...bookStore);
    await ok(dir, 'manifests');

    const stdout = await ok(dir, 'delete', 'api', ...bookStore);
    for (const path of [
      'src/api/v1/bookstore_types.ts',
      'src/controllers/bookstore_controller.ts',
      'config/crd/bases/shop.example.com_bookstores.yaml',
      'config/samples/shop_v1_bookstore.yaml',
      'config/rbac/bookstore_editor_role.yaml',
    ]) {
      expect(stdout).toMatch(new RegExp(`^DELETE ${path.replaceAll('.', '\\.')}$`, 'm'));
    }
    expect(stdout).toMatch(/^UPDATE src\/main\.ts$/m);
    expect(stdout).toContain('Next: npm run manifests');
    await ok(dir, 'manifests');
    expect(await readTree(dir)).toEqual(await readTree(fresh));
  });

  it('keeps the files the user changed, and says so; --force deletes them too', async () => {
    const dir = await project('shop-operator');
    await ok(dir, 'create', 'api', ...bookStore);
    const types = join(dir, 'src/api/v1/bookstore_types.ts');
    const controller = join(dir, 'src/controllers/bookstore_controller.ts');
    await writeFile(types, (await readFile(types, 'utf8')).replace('foo?: string;', 'title?: string;'));
    await writeFile(controller, `${await readFile(controller, 'utf8')}// mine\n`);

    const stdout = await ok(dir, 'delete', 'api', ...bookStore);
    expect(stdout).toContain('  kept src/api/v1/bookstore_types.ts: you changed it since opgen wrote it; delete it yourself, or pass --force');
    expect(stdout).toContain('  kept src/controllers/bookstore_controller.ts: ');
    expect(stdout).toContain('opgen manifests still writes a CRD for BookStore');
    let tree = await readTree(dir);
    expect(tree.get('src/api/v1/bookstore_types.ts')).toContain('title?: string;');
    // The controller the user kept stays registered; the test opgen wrote is gone.
    expect(tree.get('src/main.ts')).toContain('setupBookStoreController(mgr);');
    expect(tree.has('src/controllers/bookstore_controller.test.ts')).toBe(false);
    expect(tree.get('PROJECT')).not.toContain('BookStore');

    const again = await project('shop-operator');
    await ok(again, 'create', 'api', ...bookStore);
    const againTypes = join(again, 'src/api/v1/bookstore_types.ts');
    await writeFile(againTypes, (await readFile(againTypes, 'utf8')).replace('foo?: string;', 'title?: string;'));
    await ok(again, 'delete', 'api', ...bookStore, '--force');
    tree = await readTree(again);
    expect([...tree.keys()].some((path) => path.startsWith('src/api/'))).toBe(false);
    expect(tree.get('src/main.ts')).not.toContain('BookStore');
  });

  it('removes only its version from a CRD that keeps others', async () => {
    const dir = await project('shop-operator');
    await ok(dir, 'create', 'api', ...bookStore);
    await ok(dir, 'create', 'api', '--group', 'shop', '--version', 'v2', '--kind', 'BookStore', '--no-controller');
    await ok(dir, 'manifests');
    const crd = 'config/crd/bases/shop.example.com_bookstores.yaml';
    expect(await readFile(join(dir, crd), 'utf8')).toMatch(/- name: v2\n/);

    const stdout = await ok(dir, 'delete', 'api', '--group', 'shop', '--version', 'v2', '--kind', 'BookStore');
    expect(stdout).toMatch(new RegExp(`^UPDATE ${crd.replaceAll('.', '\\.')}$`, 'm'));
    expect(stdout).toMatch(/^DELETE src\/api\/v2\/bookstore_types\.ts$/m);
    expect(stdout).not.toContain('bookstore_editor_role.yaml');
    const tree = await readTree(dir);
    expect(tree.get(crd)).not.toMatch(/- name: v2\n/);
    expect(tree.get(crd)).toMatch(/- name: v1\n/);
    expect(tree.has('config/rbac/bookstore_editor_role.yaml')).toBe(true);
    expect(tree.get('config/samples/kustomization.yaml')).toContain('shop_v1_bookstore.yaml');
    expect(tree.get('config/samples/kustomization.yaml')).not.toContain('shop_v2_bookstore.yaml');
  });

  it('removes a built-in kind\'s controller and its registration', async () => {
    const dir = await project('deploy-operator');
    const before = await readTree(dir);
    await ok(dir, 'create', 'api', '--group', 'apps', '--version', 'v1', '--kind', 'Deployment', '--resource=false');
    await ok(dir, 'delete', 'api', '--group', 'apps', '--version', 'v1', '--kind', 'Deployment');
    expect(await readTree(dir)).toEqual(before);
  });

  it('removes an external kind\'s controller and the handle file opgen wrote for it', async () => {
    const dir = await project('cert-operator');
    const before = await readTree(dir);
    const certificate = ['--group', 'cert-manager', '--version', 'v1', '--kind', 'Certificate'];
    await ok(dir, 'create', 'api', ...certificate, '--external-api-domain', 'io', '--external-api-path', 'src/external/certificate.ts');
    const stdout = await ok(dir, 'delete', 'api', ...certificate);
    expect(stdout).toMatch(/^DELETE src\/external\/certificate\.ts$/m);
    expect(await readTree(dir)).toEqual(before);
  });

  it('--dry-run prints the plan and changes nothing', async () => {
    const dir = await project('shop-operator');
    await ok(dir, 'create', 'api', ...bookStore);
    const before = await readTree(dir);
    const stdout = await ok(dir, 'delete', 'api', ...bookStore, '--dry-run');
    expect(stdout).toMatch(/^DELETE src\/api\/v1\/bookstore_types\.ts$/m);
    expect(stdout).toContain('(dry run: nothing was written)');
    expect(await readTree(dir)).toEqual(before);
  });

  it.each([
    [['--group', 'shop', '--version', 'v1', '--kind', 'Magazine'], /^PROJECT: error: no kind Magazine in group shop, version v1; nothing was deleted \(PROJECT records: --group shop --version v1 --kind BookStore; --group shop --version v2 --kind BookStore\)$/],
    [['--group', 'shop', '--version', 'v1', '--kind', 'BookStore'], /^PROJECT: error: the controller of BookStore is scaffolded on v1, and v2 remains; nothing was deleted \(delete the other versions first/],
    [['--group', 'shop', '--version', 'v2', '--kind', 'BookStore'], /^PROJECT: error: BookStore v2 has webhooks \(PROJECT records them\) and opgen delete api does not remove webhooks yet; nothing was deleted \(remove its webhooks block/],
  ])('refuses %j with one located line, changing nothing', async (flags, message) => {
    const dir = await project('shop-operator');
    await ok(dir, 'create', 'api', ...bookStore);
    await ok(dir, 'create', 'api', '--group', 'shop', '--version', 'v2', '--kind', 'BookStore', '--no-controller');
    await ok(dir, 'create', 'webhook', '--group', 'shop', '--version', 'v2', '--kind', 'BookStore', '--defaulting');
    const before = await readTree(dir);
    const result = await opgen(dir, 'delete', 'api', ...flags);
    expect(result.code).toBe(1);
    expect(result.stderr.trimEnd()).toMatch(message);
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(await readTree(dir)).toEqual(before);
  });
});
