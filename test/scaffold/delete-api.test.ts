import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
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
    [['--group', 'shop', '--version', 'v2', '--kind', 'BookStore'], /^PROJECT: error: BookStore v2 is the hub of its conversion webhook, and its spoke v1 remains; nothing was deleted \(they convert through it; delete them first: opgen delete api --group shop --version v1 --kind BookStore\)$/],
  ])('refuses %j with one located line, changing nothing', async (flags, message) => {
    const dir = await project('shop-operator');
    await ok(dir, 'create', 'api', ...bookStore);
    await ok(dir, 'create', 'api', '--group', 'shop', '--version', 'v2', '--kind', 'BookStore', '--no-controller');
    await ok(dir, 'create', 'webhook', '--group', 'shop', '--version', 'v2', '--kind', 'BookStore', '--defaulting', '--conversion', '--spoke', 'v1');
    const before = await readTree(dir);
    const result = await opgen(dir, 'delete', 'api', ...flags);
    expect(result.code).toBe(1);
    expect(result.stderr.trimEnd()).toMatch(message);
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(await readTree(dir)).toEqual(before);
  });

  describe('of a kind with webhooks', () => {
    const frigate = (version: string) => ['--group', 'ship', '--version', version, '--kind', 'Frigate'];
    const cruiser = ['--group', 'ship', '--version', 'v1', '--kind', 'Cruiser'];

    /** init, Frigate v1 (hub) and v2, Cruiser v1, with `webhooks` run after create api; then manifests. */
    async function fleet(webhooks: (dir: string) => Promise<void>, ...initFlags: string[]): Promise<string> {
      const dir = await project('fleet-operator', ...initFlags);
      await ok(dir, 'create', 'api', ...frigate('v1'));
      await ok(dir, 'create', 'api', ...frigate('v2'), '--no-controller');
      await ok(dir, 'create', 'api', ...cruiser);
      await webhooks(dir);
      await ok(dir, 'manifests');
      return dir;
    }

    /** Frigate v1 with a defaulting, a validating and a conversion webhook (spoke v2). */
    const frigateWebhooks = (...flags: string[]) => (dir: string) =>
      ok(dir, 'create', 'webhook', ...frigate('v1'), '--defaulting', '--programmatic-validation', '--conversion', '--spoke', 'v2', ...flags).then(() => undefined);

    it.each([
      ['built-in certificates, the last webhooks of the project', [] as string[], [] as string[]],
      ['cert-manager, the last webhooks of the project (PROJECT forgets the mode)', ['--certificates', 'cert-manager'], []],
      ['cert-manager, while Cruiser keeps its validating webhook', ['--certificates', 'cert-manager'], ['--programmatic-validation']],
    ])('%s: the project equals one made without Frigate', async (_, certificates, cruiserWebhooks) => {
      const withCruiserWebhooks = async (dir: string) => {
        if (cruiserWebhooks.length) await ok(dir, 'create', 'webhook', ...cruiser, ...cruiserWebhooks, ...certificates);
      };
      const dir = await fleet(async (d) => {
        await frigateWebhooks(...certificates)(d);
        await withCruiserWebhooks(d);
      });

      // The spoke first: the hub converts nothing more, its conversion files and wiring go.
      const spoke = await ok(dir, 'delete', 'api', ...frigate('v2'));
      for (const path of ['src/webhooks/v1/frigate_conversion.ts', 'src/webhooks/v1/frigate_conversion.test.ts', 'config/crd/patches/webhook_in_frigates.yaml']) {
        expect(spoke).toMatch(new RegExp(`^DELETE ${path.replaceAll('.', '\\.')}$`, 'm'));
      }
      const hub = (await readFile(join(dir, 'PROJECT'), 'utf8')).split('kind: Frigate')[1];
      expect(hub).toContain('webhooks:\n      defaulting: true\n      validation: true\n      webhookVersion: v1\n');

      const stdout = await ok(dir, 'delete', 'api', ...frigate('v1'));
      expect(stdout).toMatch(/^DELETE src\/webhooks\/v1\/frigate_webhook\.ts$/m);
      expect(stdout).toMatch(/^DELETE src\/webhooks\/v1\/frigate_webhook\.test\.ts$/m);
      const stale = cruiserWebhooks.length ? 'config/rbac/role.yaml and config/webhook/manifests.yaml' : 'config/rbac/role.yaml';
      expect(stdout).toContain(`Next: npm run manifests, to bring ${stale} up to date without Frigate (ship.example.com).`);
      await ok(dir, 'manifests');

      const made = await project('fleet-operator');
      await ok(made, 'create', 'api', ...cruiser);
      await withCruiserWebhooks(made);
      await ok(made, 'manifests');
      const tree = await readTree(dir);
      expect(tree).toEqual(await readTree(made));
      if (cruiserWebhooks.length) {
        expect(tree.get('config/webhook/manifests.yaml')).toContain('vcruiser-v1.kb.io');
        expect(tree.get('config/webhook/manifests.yaml')).not.toMatch(/frigate/i);
      } else {
        expect([...tree.keys()].filter((path) => /webhook|certmanager/.test(path))).toEqual([]);
      }
    });

    it('a spoke of several: the hub converts the others, as if it had never had that one', async () => {
      const widget = (version: string) => ['--group', 'shop', '--version', version, '--kind', 'Widget'];
      const widgets = async (versions: string[]) => {
        const dir = await project('shop-operator');
        await ok(dir, 'create', 'api', ...widget('v1'));
        for (const version of versions) await ok(dir, 'create', 'api', ...widget(version), '--no-controller');
        await ok(dir, 'create', 'webhook', ...widget('v1'), '--conversion', '--spoke', versions.join(','));
        await ok(dir, 'manifests');
        return dir;
      };
      const dir = await widgets(['v2', 'v3']);
      const stdout = await ok(dir, 'delete', 'api', ...widget('v3'));
      expect(stdout).toMatch(/^UPDATE src\/webhooks\/v1\/widget_conversion\.ts$/m);
      await ok(dir, 'manifests');
      expect(await readTree(dir)).toEqual(await readTree(await widgets(['v2'])));
    });

    it('keeps the handler the user changed, says so, and serves it no more; --force deletes it', async () => {
      const dir = await fleet(frigateWebhooks());
      const handler = join(dir, 'src/webhooks/v1/frigate_webhook.ts');
      await writeFile(handler, `${await readFile(handler, 'utf8')}// my rules\n`);
      const conversion = join(dir, 'src/webhooks/v1/frigate_conversion.ts');
      await writeFile(conversion, `${await readFile(conversion, 'utf8')}// my conversion\n`);

      const spoke = await ok(dir, 'delete', 'api', ...frigate('v2'));
      expect(spoke).toContain('  kept src/webhooks/v1/frigate_conversion.ts: you changed it since opgen wrote it; delete it yourself, or pass --force');
      const stdout = await ok(dir, 'delete', 'api', ...frigate('v1'));
      expect(stdout).toContain('  kept src/webhooks/v1/frigate_webhook.ts: you changed it since opgen wrote it; delete it yourself, or pass --force');
      expect(stdout).toContain('  (while src/webhooks/v1/frigate_webhook.ts is there, opgen manifests still writes its webhook configuration entries)');
      const tree = await readTree(dir);
      expect(tree.get('src/webhooks/v1/frigate_webhook.ts')).toContain('// my rules');
      expect(tree.has('src/webhooks/v1/frigate_webhook.test.ts')).toBe(false);
      expect(tree.has('src/webhooks/setup.ts')).toBe(false);
      expect(tree.get('src/main.ts')).not.toContain('setupWebhooks');

      const forced = await fleet(frigateWebhooks());
      const forcedHandler = join(forced, 'src/webhooks/v1/frigate_webhook.ts');
      await writeFile(forcedHandler, `${await readFile(forcedHandler, 'utf8')}// my rules\n`);
      await ok(forced, 'delete', 'api', ...frigate('v2'));
      await ok(forced, 'delete', 'api', ...frigate('v1'), '--force');
      expect([...(await readTree(forced)).keys()].some((path) => path.startsWith('src/webhooks/'))).toBe(false);
    });

    it('a hub conversion the user changed is kept when a spoke goes, with what to finish by hand', async () => {
      const widget = (version: string) => ['--group', 'shop', '--version', version, '--kind', 'Widget'];
      const dir = await project('shop-operator');
      await ok(dir, 'create', 'api', ...widget('v1'));
      for (const version of ['v2', 'v3']) await ok(dir, 'create', 'api', ...widget(version), '--no-controller');
      await ok(dir, 'create', 'webhook', ...widget('v1'), '--conversion', '--spoke', 'v2,v3');
      const conversion = join(dir, 'src/webhooks/v1/widget_conversion.ts');
      const mine = `${await readFile(conversion, 'utf8')}// my conversion\n`;
      await writeFile(conversion, mine);

      const stdout = await ok(dir, 'delete', 'api', ...widget('v3'));
      expect(stdout).toContain('  kept src/webhooks/v1/widget_conversion.ts: you changed it since opgen wrote it; take v3 out of it by hand (the hub no longer converts it)');
      expect(await readFile(conversion, 'utf8')).toBe(mine);
      expect(await readFile(join(dir, 'PROJECT'), 'utf8')).toContain('spoke:\n        - v2\n      webhookVersion');
      expect(await readFile(join(dir, 'src/webhooks/v1/widget_conversion.test.ts'), 'utf8')).not.toContain('v3');
    });

    it('a multigroup kind whose namesake in another group got webhooks later: its handler is still opgen\'s, and goes', async () => {
      const dir = await project('fleet-operator');
      await ok(dir, 'edit', '--multigroup');
      await ok(dir, 'create', 'api', ...frigate('v1'));
      await ok(dir, 'create', 'api', '--group', 'sea', '--version', 'v1', '--kind', 'Frigate');
      await ok(dir, 'create', 'webhook', ...frigate('v1'), '--defaulting');
      await ok(dir, 'create', 'webhook', '--group', 'sea', '--version', 'v1', '--kind', 'Frigate', '--defaulting');
      const stdout = await ok(dir, 'delete', 'api', ...frigate('v1'));
      expect(stdout).toMatch(/^DELETE src\/webhooks\/ship\/v1\/frigate_webhook\.ts$/m);
      expect(stdout).not.toContain('kept');
      const setup = await readFile(join(dir, 'src/webhooks/setup.ts'), 'utf8');
      expect(setup).toContain('./sea/v1/frigate_webhook.js');
      expect(setup).not.toContain('./ship/');
    });

    it('--dry-run prints the plan, webhooks included, and changes nothing', async () => {
      const dir = await fleet(frigateWebhooks());
      await ok(dir, 'delete', 'api', ...frigate('v2'));
      const before = await readTree(dir);
      const stdout = await ok(dir, 'delete', 'api', ...frigate('v1'), '--dry-run');
      expect(stdout).toMatch(/^DELETE src\/webhooks\/setup\.ts$/m);
      expect(stdout).toMatch(/^DELETE config\/webhook\/service\.yaml$/m);
      expect(stdout).toMatch(/^UPDATE config\/default\/kustomization\.yaml$/m);
      expect(stdout).toContain('(dry run: nothing was written)');
      expect(await readTree(dir)).toEqual(before);
    });

    it('a file system refusal half-way: one line, and the project is as it was', async () => {
      const dir = await fleet(frigateWebhooks());
      await ok(dir, 'delete', 'api', ...frigate('v2'));
      const before = await readTree(dir);
      // The writer stages each deletion by renaming the file aside; a folder in the way of the last
      // one (src/webhooks/v1/frigate_webhook.ts) fails it after the others were moved.
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(new Date('2026-01-01T00:00:00Z'));
      const aside = join(dir, `src/webhooks/v1/frigate_webhook.ts.opgen-tmp-${process.pid}-${Date.now()}.bak`);
      await mkdir(aside);
      await writeFile(join(aside, 'in-the-way'), '');
      try {
        const result = await opgen(dir, 'delete', 'api', ...frigate('v1'));
        expect(result.code).toBe(1);
        expect(result.stderr.trimEnd()).toMatch(/^error: could not write .*frigate_webhook\.ts.*; nothing was written$/);
      } finally {
        vi.useRealTimers();
      }
      await rm(aside, { recursive: true });
      expect(await readTree(dir)).toEqual(before);
    });

    it('a corrupt kustomization it must change: one located line, nothing deleted', async () => {
      const dir = await fleet(frigateWebhooks());
      await ok(dir, 'delete', 'api', ...frigate('v2'));
      const kustomization = join(dir, 'config/default/kustomization.yaml');
      await writeFile(kustomization, (await readFile(kustomization, 'utf8')).replace('patches:', 'patches: [oops'));
      const before = await readTree(dir);
      const result = await opgen(dir, 'delete', 'api', ...frigate('v1'));
      expect(result.code).toBe(1);
      expect(result.stderr.trimEnd()).toMatch(/^config\/default\/kustomization\.yaml:\d+:\d+: error: corrupt kustomization: /);
      expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(await readTree(dir)).toEqual(before);
    });
  });
});
