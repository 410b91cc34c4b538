import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packedProject } from './packed-project.js';

// opgen init --multicluster as a user takes it: the packages as npm would publish them, a
// kind, the project's own tests (two memory clusters), then its e2e test (the built operator
// as its ServiceAccount with config/'s RBAC on one real control plane, a second one named by
// a kubeconfig Secret) with a test a user adds: a Widget created on the second cluster is
// reconciled there. Needs `npm run build` first, and the control plane binaries
// (KUBEBUILDER_ASSETS) for the e2e part.

const project = packedProject('fleet-operator');
const { inProject } = project;

/** What a user adds to test/e2e/operator.test.ts: their kind, created on the fleet's cluster. */
const widgetOnMember = `  it('reconciles a Widget on the cluster its kubeconfig Secret names', async () => {
    const kubectl = kubectlFor(member!, { cwd: project });
    await kubectl(['apply', '--server-side', '-n', 'default', '-k', 'config/samples']);
    await kubectl(['wait', '--for=condition=Ready', '--timeout=60s', '-n', 'default', 'widget/widget-sample']);
    const widget = await kubectl.get('widget', 'widget-sample', { namespace: 'default' });
    expect(widget.status.conditions[0].message).toContain('on cluster member');
  });

`;

describe('a project scaffolded with --multicluster', () => {
  it(
    'passes its own tests on two memory clusters, and its operator reconciles a Widget on a second real control plane',
    async () => {
      await project.init('example.com', '--multicluster');
      await project.run('create', 'api', '--group', 'shop', '--version', 'v1', '--kind', 'Widget');

      const test = await inProject('npm', ['test']);
      expect(test.exitCode, test.all).toBe(0);
      expect(test.all).toMatch(/widget_controller\.test\.ts \(1 test\)/);
      expect(test.all).toMatch(/Tests\s+1 passed/);

      const typecheck = await inProject('npx', ['tsc', '--noEmit']);
      expect(typecheck.exitCode, typecheck.all).toBe(0);

      const e2eFile = join(project.dir, 'test/e2e/operator.test.ts');
      const e2e = await readFile(e2eFile, 'utf8');
      const stop = "  it('stops cleanly on SIGTERM'";
      expect(e2e).toContain(stop);
      await writeFile(e2eFile, e2e.replace(stop, `${widgetOnMember}${stop}`));
      const run = await inProject('npm', ['run', 'test:e2e']);
      expect(run.exitCode, run.all).toBe(0);
      expect(run.all).toMatch(/Tests\s+4 passed/);
    },
    15 * 60_000,
  );
});
