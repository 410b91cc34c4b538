import { readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanUp, opgen, projectDir, readTree } from './run.js';

let dir: string;
beforeEach(async () => {
  dir = await projectDir('demo-volume-operator');
  expect((await opgen(dir, 'init', '--domain', 'civo.com', '--skip-install')).code).toBe(0);
});
afterEach(async () => {
  await cleanUp(dir);
});

const demoVolume = ['create', 'api', '--group', 'storage', '--version', 'v1', '--kind', 'DemoVolume'];
const controller = 'src/controllers/demovolume_controller.ts';
const read = (path: string) => readFile(join(dir, path), 'utf8');

describe('create api --dry-run', () => {
  it('prints the plan and writes nothing', async () => {
    const before = await readTree(dir);
    const result = await opgen(dir, ...demoVolume, '--dry-run');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^CREATE src\/api\/v1\/demovolume_types\.ts$/m);
    expect(result.stdout).toMatch(/^CREATE src\/controllers\/demovolume_controller\.ts$/m);
    expect(result.stdout).toMatch(/^UPDATE src\/main\.ts$/m);
    expect(result.stdout).toMatch(/^UPDATE PROJECT$/m);
    expect(result.stdout).toContain('(dry run: nothing was written)');
    expect(await readTree(dir)).toEqual(before);
  });
});

describe('init --dry-run', () => {
  it('prints the plan, writes nothing and installs nothing', async () => {
    const empty = await projectDir('other-operator');
    try {
      const result = await opgen(empty, 'init', '--domain', 'civo.com', '--dry-run');
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/^CREATE package\.json$/m);
      expect(result.stdout).toMatch(/^CREATE config\/manager\/manager\.yaml$/m);
      expect(result.stdout).not.toContain('npm install');
      expect((await readTree(empty)).size).toBe(0);
    } finally {
      await cleanUp(empty);
    }
  });
});

describe('create api for a kind that exists', () => {
  it('fails cleanly without --force', async () => {
    expect((await opgen(dir, ...demoVolume)).code).toBe(0);
    const before = await readTree(dir);
    const again = await opgen(dir, ...demoVolume);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already exists; nothing was written/);
    expect(await readTree(dir)).toEqual(before);
  });

  it('with --force and nothing changed, changes nothing', async () => {
    expect((await opgen(dir, ...demoVolume)).code).toBe(0);
    const before = await readTree(dir);
    const forced = await opgen(dir, ...demoVolume, '--force');
    expect(forced.code).toBe(0);
    expect(forced.stdout).not.toMatch(/^(CREATE|UPDATE|SKIP)/m);
    expect(await readTree(dir)).toEqual(before);
  });

  it('with --force rewrites the scaffold files the user left alone and keeps the controller logic the user wrote', async () => {
    expect((await opgen(dir, ...demoVolume)).code).toBe(0);
    const mainBefore = await read('src/main.ts');
    const userLogic = (await read(controller)).replace(
      '      // Your logic goes here.',
      '      await ensurePersistentVolumeClaim(demoVolume, ctx);\n      // Your logic goes here.',
    );
    await writeFile(join(dir, controller), userLogic);
    await rm(join(dir, 'config/rbac/demovolume_viewer_role.yaml'));

    // The user meant a cluster-scoped kind: re-scaffold it.
    const forced = await opgen(dir, ...demoVolume, '--namespaced=false', '--force');
    expect(forced.code).toBe(0);
    expect(forced.stdout).toMatch(/^UPDATE src\/api\/v1\/demovolume_types\.ts$/m);
    expect(forced.stdout).toMatch(/^UPDATE src\/controllers\/demovolume_controller\.test\.ts$/m);
    expect(forced.stdout).toMatch(/^SKIP {3}src\/controllers\/demovolume_controller\.ts$/m);
    expect(forced.stdout).toContain('kept src/controllers/demovolume_controller.ts: it differs from what opgen scaffolded');
    expect(forced.stdout).toMatch(/^CREATE config\/rbac\/demovolume_viewer_role\.yaml$/m);

    expect(await read(controller)).toBe(userLogic);
    expect(await read('src/api/v1/demovolume_types.ts')).toContain('+kubebuilder:resource:scope=Cluster');
    expect(await read('src/api/v1/demovolume_types.ts')).toContain("namespaced: false });");
    expect(await read('src/controllers/demovolume_controller.test.ts')).toContain("metadata: { name: 'demovolume-test' }");
    expect(await read('PROJECT')).toContain('      namespaced: false\n');
    expect(await read('src/main.ts')).toBe(mainBefore);
  });

  it('with --force rewrites a controller the user did not change', async () => {
    expect((await opgen(dir, ...demoVolume)).code).toBe(0);
    const forced = await opgen(dir, ...demoVolume, '--namespaced=false', '--force');
    expect(forced.stdout).toMatch(/^UPDATE src\/controllers\/demovolume_controller\.ts$/m);
    expect(await read(controller)).toContain("reason: 'FooSet'");
  });

  it('adds a controller to a kind scaffolded without one, without --force', async () => {
    expect((await opgen(dir, ...demoVolume, '--no-controller')).code).toBe(0);
    expect(await read('src/main.ts')).not.toContain('setupDemoVolumeController');
    const types = await read('src/api/v1/demovolume_types.ts');

    const added = await opgen(dir, ...demoVolume, '--no-resource');
    expect(added.code).toBe(0);
    expect(added.stdout).toMatch(/^CREATE src\/controllers\/demovolume_controller\.ts$/m);
    expect(await read('src/main.ts')).toContain('setupDemoVolumeController(mgr);');
    expect(await read('src/api/v1/demovolume_types.ts')).toBe(types);
    expect(await read('PROJECT')).toContain('    controller: true\n');
  });
});

describe('a write that fails half-way', () => {
  it('leaves the project as it was', async () => {
    // config/samples is a dangling link: the files before it in the plan are staged, then
    // creating its directory fails.
    await rm(join(dir, 'config/samples'), { recursive: true });
    await symlink('../gone', join(dir, 'config/samples'));
    const before = await readTree(dir);
    const result = await opgen(dir, ...demoVolume);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('config/samples');
    expect(result.stdout).not.toMatch(/^(CREATE|UPDATE)/m);
    expect(await readTree(dir)).toEqual(before);
  });
});
