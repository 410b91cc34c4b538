import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { parse, stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanUp, opgen, projectDir } from './run.js';

// What kubebuilder scaffolds besides the code, in npm terms: a lint setup that passes on the
// scaffold, CI workflows, and an end-to-end test that runs the built operator as a process
// against a real API server. opgen's installed packages stand in for the project's npm install.

const repo = fileURLToPath(new URL('../../', import.meta.url));
let dir: string;

beforeAll(async () => {
  dir = await projectDir('shop-operator');
  for (const args of [
    ['init', '--domain', 'example.com', '--skip-install'],
    ['create', 'api', '--group', 'shop', '--version', 'v1', '--kind', 'BookStore'],
    ['create', 'api', '--group', 'shop', '--version', 'v1', '--kind', 'Warehouse', '--namespaced=false'],
    ['create', 'api', '--group', 'apps', '--version', 'v1', '--kind', 'Deployment', '--resource=false'],
    ['create', 'api', '--group', 'cert-manager', '--version', 'v1', '--kind', 'Certificate', '--external-api-domain', 'io', '--external-api-path', 'src/external/certificate.ts'],
  ]) {
    const result = await opgen(dir, ...args);
    expect(result.stderr).toBe('');
  }
  await symlink(join(repo, 'node_modules'), join(dir, 'node_modules'), 'dir');
});
afterAll(async () => {
  if (dir) await cleanUp(dir);
});

/** A small stand-in for cert-manager's Certificate CRD: the group, names and scope are what matter here. */
const certificateCrd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'certificates.cert-manager.io' },
  spec: {
    group: 'cert-manager.io',
    names: { kind: 'Certificate', listKind: 'CertificateList', plural: 'certificates', singular: 'certificate' },
    scope: 'Namespaced',
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
  },
};

const bin = (name: string) => join(repo, 'node_modules/.bin', name);

describe('the scaffold', () => {
  it('passes its own lint setup (typescript-eslint flat config), and the lint catches a real problem', async () => {
    const script = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(script.scripts.lint).toBe('eslint .');
    const clean = await execa(bin('eslint'), ['.'], { cwd: dir, reject: false, all: true });
    expect(clean.all).toBe('');
    expect(clean.exitCode).toBe(0);

    const bad = await execa(bin('eslint'), ['--stdin', '--stdin-filename', 'src/bad.ts'], { cwd: dir, reject: false, all: true, input: 'export const x: any = 1;\n' });
    expect(bad.exitCode).toBe(1);
    expect(bad.all).toContain('@typescript-eslint/no-explicit-any');
  });

  it('has kubebuilder\'s three workflows: lint with manifests --check, tests with a cached control plane, e2e', async () => {
    type Workflow = { on: unknown; jobs: Record<string, { steps: { run?: string; uses?: string; with?: Record<string, string> }[] }> };
    const read = async (name: string) => parse(await readFile(join(dir, '.github/workflows', name), 'utf8')) as Workflow;
    const runs = (workflow: Workflow) => Object.values(workflow.jobs).flatMap((job) => job.steps.flatMap((step) => (step.run ? [step.run] : [])));

    expect(runs(await read('lint.yml'))).toEqual(['npm ci --ignore-scripts', 'npm run lint', 'npx tsc --noEmit', 'npx opgen manifests --check']);
    const test = await read('test.yml');
    expect(runs(test)).toEqual(['npm ci --ignore-scripts', 'npx opgen setup-envtest', 'npm test']);
    const cache = Object.values(test.jobs)[0]!.steps.find((step) => step.uses?.startsWith('actions/cache@'));
    expect(cache?.with).toMatchObject({ path: '~/.cache/opgen/controlplane', key: expect.stringContaining("hashFiles('package-lock.json')") as unknown });
    expect(runs(await read('test-e2e.yml'))).toEqual(['npm ci --ignore-scripts', 'npx opgen setup-envtest', 'npm run test:e2e']);
  });

  it('passes its own npm test: the controller tests of a kind of its own (namespaced and cluster-scoped), a built-in kind and an external kind', { timeout: 300_000 }, async () => {
    // The external kind's CRD, as the user puts it where the scaffolded test looks for it.
    await mkdir(join(dir, 'config/crd/external'), { recursive: true });
    await writeFile(join(dir, 'config/crd/external/certificates.yaml'), stringify(certificateCrd));
    const test = await execa('npm', ['test'], { cwd: dir, reject: false, all: true, env: { NO_COLOR: '1' } });
    expect(test.exitCode, test.all).toBe(0);
    for (const file of ['bookstore', 'warehouse', 'deployment', 'certificate']) expect(test.all).toContain(`src/controllers/${file}_controller.test.ts`);
    expect(test.all).toMatch(/Tests\s+4 passed/);
  });

  it('runs its e2e test: the built operator, as its ServiceAccount with config/\'s RBAC, against a real API server', { timeout: 300_000 }, async () => {
    const e2e = await execa('npm', ['run', 'test:e2e'], { cwd: dir, reject: false, all: true, env: { NO_COLOR: '1' } });
    expect(e2e.exitCode, e2e.all).toBe(0);
    expect(e2e.all).toMatch(/test\/e2e\/operator\.test\.ts \(2 tests\)/);
    expect(e2e.all).toMatch(/Tests\s+2 passed/);
  });
});
