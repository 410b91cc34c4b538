import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanUp, opgen, projectDir, readTree } from '../scaffold/run.js';

let dir: string;

/**
 * A project made by init, four create api (a kind, a second version, a built-in kind's
 * controller, a cluster-scoped kind) and three create webhook (admission on one version,
 * conversion to the other as hub, defaulting of a built-in kind).
 */
async function scaffoldProject(): Promise<void> {
  dir = await projectDir('shop-operator');
  const steps = [
    ['init', '--domain', 'example.com', '--multigroup', '--skip-install', '--owner', 'Shop Authors'],
    ['create', 'api', '--group', 'shop', '--version', 'v1', '--kind', 'Widget'],
    ['create', 'api', '--group', 'shop', '--version', 'v2', '--kind', 'Widget', '--no-controller'],
    ['create', 'api', '--group', 'apps', '--version', 'v1', '--kind', 'Deployment', '--resource=false', '--controller'],
    ['create', 'api', '--group', 'ops', '--version', 'v1alpha1', '--kind', 'Backup', '--namespaced=false'],
    ['create', 'webhook', '--group', 'shop', '--version', 'v1', '--kind', 'Widget', '--defaulting', '--programmatic-validation'],
    ['create', 'webhook', '--group', 'shop', '--version', 'v2', '--kind', 'Widget', '--conversion', '--spoke', 'v1'],
    ['create', 'webhook', '--group', 'core', '--version', 'v1', '--kind', 'Pod', '--defaulting'],
  ];
  for (const args of steps) expect((await opgen(dir, ...args)).code, args.join(' ')).toBe(0);
}

beforeEach(scaffoldProject);
afterEach(() => cleanUp(dir));

describe('opgen alpha generate', () => {
  it('re-scaffolds from PROJECT exactly the files init, create api and create webhook wrote', async () => {
    const result = await opgen(dir, 'alpha', 'generate', '--output-dir', '../fresh');
    expect(result.code, result.stderr).toBe(0);
    expect(await readTree(join(dir, '..', 'fresh'))).toEqual(await readTree(dir));
  });

  it('in place writes back a deleted file and leaves every changed or added file alone', async () => {
    const controller = join(dir, 'src/controllers/shop/widget_controller.ts');
    await writeFile(controller, '// mine\n');
    await writeFile(join(dir, 'src/mine.ts'), 'export const mine = 1;\n');
    await rm(join(dir, 'Dockerfile'));
    const result = await opgen(dir, 'alpha', 'generate');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('CREATE Dockerfile');
    expect(result.stdout).toContain('SKIP   src/controllers/shop/widget_controller.ts');
    expect(await readFile(controller, 'utf8')).toBe('// mine\n');
    expect(await readFile(join(dir, 'src/mine.ts'), 'utf8')).toBe('export const mine = 1;\n');
  });

  it('refuses a non-empty output directory without --force, writing nothing', async () => {
    await writeFile(join(dir, '..', 'note.txt'), 'x');
    const before = await readTree(join(dir, '..'));
    const result = await opgen(dir, 'alpha', 'generate', '--output-dir', '..');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: --output-dir .* is not empty; nothing was written/);
    expect(await readTree(join(dir, '..'))).toEqual(before);
  });
});
