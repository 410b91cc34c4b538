import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startControlPlane, startOperator, type ControlPlane } from '@opgen/runtime/testing';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { packedProject } from './packed-project.js';

// A new user's path once a kind has webhooks: init → create api → create webhook, then the
// project's own e2e test (what its CI workflow runs) and `npm start` on their machine.
// Scaffolded from the packages as npm would publish them; needs `npm run build` first.

const project = packedProject('gizmo-operator');
const { run, inProject } = project;
let controlPlane: ControlPlane | undefined;

afterAll(async () => {
  await controlPlane?.stop();
});

describe('a fresh project with webhooks', () => {
  it(
    'passes its own e2e test, and npm start names ENABLE_WEBHOOKS=false as the README does',
    async () => {
      await project.init('example.com');
      await run('create', 'api', '--group', 'shop', '--version', 'v1', '--kind', 'Gizmo');
      await run('create', 'webhook', '--group', 'shop', '--version', 'v1', '--kind', 'Gizmo', '--defaulting', '--programmatic-validation');
      const install = await inProject('npm', ['install', '--no-audit', '--no-fund']);
      expect(install.exitCode, install.all).toBe(0);
      const lint = await inProject('npm', ['run', 'lint']);
      expect(lint.exitCode, lint.all).toBe(0);

      // The e2e workflow's one step: the manager serves its webhooks with the built-in
      // certificates, in its own namespace, with exactly the RBAC of config/.
      const e2e = await inProject('npm', ['run', 'test:e2e']);
      expect(e2e.exitCode, e2e.all).toBe(0);
      expect(e2e.all).toMatch(/Tests\s+2 passed/);

      const readme = await readFile(join(project.dir, 'README.md'), 'utf8');
      expect(readme).toContain('ENABLE_WEBHOOKS=false npm start');

      // On the user's machine the API server cannot call the webhooks: npm start says what to do.
      controlPlane = await startControlPlane();
      const env = { NO_COLOR: '1', KUBECONFIG: controlPlane.kubeconfigPath };
      const crds = await execa('npm', ['run', 'crds:install'], { cwd: project.dir, all: true, reject: false, env });
      expect(crds.exitCode, crds.all).toBe(0);
      const start = await execa('npm', ['start'], { cwd: project.dir, all: true, reject: false, env, timeout: 120_000 });
      expect(start.timedOut, start.all).toBe(false);
      expect(start.exitCode).not.toBe(0);
      const hint = start.stderr.split('\n').filter((line) => line.includes('ENABLE_WEBHOOKS=false'));
      expect(hint, start.all).toHaveLength(1);
      expect(hint[0]).toMatch(/^error: /);
      expect(start.stderr, start.all).not.toMatch(/^\s+at /m);

      // As the hint says, the controllers then run locally.
      const local = await startOperator({ dir: project.dir, kubeconfigPath: controlPlane.kubeconfigPath, env: { ENABLE_WEBHOOKS: 'false' } });
      try {
        await local.waitForLog('Starting workers', 60_000);
      } finally {
        expect(await local.stop()).toBe(0);
      }
    },
    20 * 60_000,
  );
});
