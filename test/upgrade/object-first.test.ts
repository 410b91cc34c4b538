import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { packagedTemplates } from '../../src/generators/scaffold/render.js';
import { loadProject } from '../../src/project/load.js';
import { scaffold } from '../../src/upgrade/replay.js';
import { scaffoldOf, type ScaffoldVersion } from '../../src/upgrade/scaffold-version.js';
import { readProjectSettings } from '../../src/upgrade/settings.js';
import { cleanUp, opgen, projectDir } from '../scaffold/run.js';
import { editFile, upgradeTo } from './run-upgrade.js';

// A project as opgen 0.1.0 scaffolded it (its controller in the request form), upgraded by an
// opgen whose scaffold is today's: the starter files the user left alone move to the
// object-first form; the ones the user changed stay theirs.

let dir: string;
const read = (path: string) => readFile(join(dir, path), 'utf8');
const controller = 'src/controllers/widget_controller.ts';
const controllerTest = 'src/controllers/widget_controller.test.ts';
const types = 'src/api/v1/widget_types.ts';
/** The next release: today's scaffold under a version above 0.1.0. */
const next: ScaffoldVersion = { version: '0.2.0', templates: packagedTemplates };
/** What today's opgen scaffolds for the kind, to compare the upgrade with. */
let today: Map<string, string>;

beforeEach(async () => {
  dir = await projectDir('shop-operator');
  expect((await opgen(dir, 'init', '--domain', 'example.com', '--skip-install')).code).toBe(0);
  expect((await opgen(dir, 'create', 'api', '--group', 'shop', '--version', 'v1', '--kind', 'Widget')).code).toBe(0);
  today = new Map(await Promise.all([controller, controllerTest, types].map(async (path) => [path, await read(path)] as const)));
  // What 0.1.0 wrote, and a PROJECT from before cliVersion was recorded (0.1.0 itself).
  const project = await loadProject(dir, 'upgrade');
  const old = scaffold(project, scaffoldOf(undefined), await readProjectSettings(dir));
  for (const path of [controller, controllerTest, types]) await writeFile(join(dir, path), old.get(path)!.content);
  await writeFile(join(dir, 'PROJECT'), (await read('PROJECT')).replace(/^cliVersion: .*\n/m, ''));
});
afterEach(() => cleanUp(dir));

describe('opgen upgrade from 0.1.0', () => {
  it('moves the unedited request-form starter controller and its test to the object-first form', async () => {
    expect(await read(controller)).toContain('export async function reconcileWidget(req: Request, ctx: ReconcileContext): Promise<Result> {');
    const result = await upgradeTo(dir, next);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^UPDATE   src\/controllers\/widget_controller\.ts$/m);
    expect(result.stdout).toMatch(/^UPDATE   src\/controllers\/widget_controller\.test\.ts$/m);
    expect(result.stdout).toMatch(/^UPDATE   src\/api\/v1\/widget_types\.ts$/m);
    expect(await read(controller)).toBe(today.get(controller));
    expect(await read(controller)).toContain('.reconcile(async (widget, ctx) => {');
    expect(await read(controllerTest)).toBe(today.get(controllerTest));
    expect(await read(types)).toContain('defineKind<Widget, true>(');
  });

  it('keeps a controller the user changed, and its test, in the request form (it still compiles), and merges their API file', async () => {
    await editFile(dir, controller, "ctx.log.info('reconciling Widget');", "ctx.log.info('reconciling Widget, counting its gadgets');");
    await editFile(dir, types, '  foo?: string;', '  foo?: string;\n  gadgets?: number;');
    const before = { controller: await read(controller), test: await read(controllerTest) };
    const result = await upgradeTo(dir, next);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^SKIP +src\/controllers\/widget_controller\.ts$/m);
    expect(result.stdout).toContain('the starter controller was rewritten in the object-first form since: it stays yours');
    expect(result.stdout).toMatch(/^SKIP +src\/controllers\/widget_controller\.test\.ts$/m);
    expect(await read(controller)).toBe(before.controller);
    expect(await read(controllerTest)).toBe(before.test);
    expect(result.stdout).toMatch(/^MERGE    src\/api\/v1\/widget_types\.ts$/m);
    const merged = await read(types);
    expect(merged).toContain('  gadgets?: number;');
    expect(merged).toContain('defineKind<Widget, true>(');
  });
});
