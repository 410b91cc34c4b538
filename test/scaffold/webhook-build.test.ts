import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packedProject } from './packed-project.js';

// What `opgen create webhook` scaffolds must work as written: a project with a kind in two
// versions gets defaulting, validating and conversion webhooks, installs the packages as
// npm would publish them, builds, and passes its OWN tests, which start a real control
// plane and have the API server call the webhooks. Needs `npm run build` first.

const project = packedProject('shop-operator');
const { run, inProject } = project;

describe('a project with webhooks', () => {
  it(
    'builds and passes its own defaulting, validation and conversion tests against the API server',
    async () => {
      await project.init('example.com');
      await run('create', 'api', '--group', 'shop', '--version', 'v1', '--kind', 'Widget');
      await run('create', 'api', '--group', 'shop', '--version', 'v2', '--kind', 'Widget', '--no-controller');
      await run('create', 'webhook', '--group', 'shop', '--version', 'v2', '--kind', 'Widget', '--defaulting', '--programmatic-validation', '--conversion', '--spoke', 'v1');

      // create webhook added fast-check to package.json: install it.
      const install = await inProject('npm', ['install', '--no-audit', '--no-fund']);
      expect(install.exitCode, install.all).toBe(0);
      const build = await inProject('npm', ['run', 'build']);
      expect(build.exitCode, build.all).toBe(0);
      expect(existsSync(join(project.dir, 'dist/webhooks/setup.js'))).toBe(true);
      const typecheck = await inProject('npx', ['tsc', '--noEmit']);
      expect(typecheck.exitCode, typecheck.all).toBe(0);
      const lint = await inProject('npm', ['run', 'lint']);
      expect(lint.exitCode, lint.all).toBe(0);

      const test = await inProject('npm', ['test', '--', '--reporter=verbose']);
      expect(test.exitCode, test.all).toBe(0);
      for (const name of [
        'default the tier label of a new Widget',
        'refuse a change of the tier label, with the reason',
        'v1 → v2 → v1 is the identity',
        'v2 → v1 → v2 keeps every field',
        'reads a Widget written as v1 as v2, and back unchanged',
        'keeps a ConfigMap holding spec.foo, owned by the Widget, and reports Ready once it sees it',
      ]) {
        expect(test.all).toContain(name);
      }
      expect(test.all).toMatch(/Tests\s+6 passed/);
    },
    20 * 60_000,
  );
});
