import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packedProject } from './packed-project.js';

// What `opgen delete api` leaves of a project with webhooks must still build and lint: the hub's
// conversion rewritten for the spokes that remain, src/webhooks/setup.ts without the kind,
// and src/main.ts without setupWebhooks once the last webhook goes. The packages are
// installed as npm would publish them. Needs `npm run build` first; no control plane.

const project = packedProject('shop-operator');
const { run, inProject } = project;

async function buildsTypeChecksAndLints(): Promise<void> {
  const build = await inProject('npm', ['run', 'build']);
  expect(build.exitCode, build.all).toBe(0);
  const typecheck = await inProject('npx', ['tsc', '--noEmit']);
  expect(typecheck.exitCode, typecheck.all).toBe(0);
  const lint = await inProject('npm', ['run', 'lint']);
  expect(lint.exitCode, lint.all).toBe(0);
}

const widget = (version: string) => ['--group', 'shop', '--version', version, '--kind', 'Widget'];

describe('a project after delete api of kinds with webhooks', () => {
  it(
    'builds, type-checks and lints with a spoke gone, and with the last webhook gone',
    async () => {
      await project.init('example.com');
      await run('create', 'api', ...widget('v1'));
      await run('create', 'api', ...widget('v2'), '--no-controller');
      await run('create', 'api', ...widget('v3'), '--no-controller');
      await run('create', 'webhook', ...widget('v1'), '--defaulting', '--programmatic-validation', '--conversion', '--spoke', 'v2,v3');
      await run('create', 'webhook', ...widget('v2'), '--defaulting');
      await run('create', 'api', '--group', 'shop', '--version', 'v1', '--kind', 'Gadget');
      const install = await inProject('npm', ['install', '--no-audit', '--no-fund']);
      expect(install.exitCode, install.all).toBe(0);

      // v2 had its own webhook and was a spoke: the hub now converts v3 only.
      await run('delete', 'api', ...widget('v2'));
      const conversion = await readFile(join(project.dir, 'src/webhooks/v1/widget_conversion.ts'), 'utf8');
      expect(conversion).toContain('v3');
      expect(conversion).not.toContain('v2');
      expect(await readFile(join(project.dir, 'src/webhooks/setup.ts'), 'utf8')).not.toContain('v2/');
      await buildsTypeChecksAndLints();

      await run('delete', 'api', ...widget('v3'));
      await run('delete', 'api', ...widget('v1'));
      expect(existsSync(join(project.dir, 'src/webhooks'))).toBe(false);
      expect(await readFile(join(project.dir, 'src/main.ts'), 'utf8')).not.toContain('setupWebhooks');
      await rm(join(project.dir, 'dist'), { recursive: true, force: true });
      await buildsTypeChecksAndLints();
      expect(existsSync(join(project.dir, 'dist/main.js'))).toBe(true);
    },
    15 * 60_000,
  );
});
