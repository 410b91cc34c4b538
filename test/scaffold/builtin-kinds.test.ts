import { readFile, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { builtinKinds } from '../../src/generators/scaffold/builtin-kinds.js';
import { cleanUp, opgen, projectDir, readTree } from './run.js';

// Controllers for kinds the cluster defines (kubebuilder's `create api --resource=false` of
// a core type), and kinds whose names collide with JavaScript globals or runtime kinds.

const repo = fileURLToPath(new URL('../../', import.meta.url));
let dir: string | undefined;
afterEach(async () => {
  if (dir) await cleanUp(dir);
  dir = undefined;
});

async function init(name: string, ...flags: string[]): Promise<string> {
  dir = await projectDir(name);
  const result = await opgen(dir, 'init', '--domain', 'example.com', '--skip-install', ...flags);
  expect(result.code).toBe(0);
  return dir;
}

async function ok(cwd: string, ...args: string[]): Promise<string> {
  const result = await opgen(cwd, ...args);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return result.stdout;
}

describe('create api for a built-in kind', () => {
  it('apps/v1 Deployment --resource=false --controller: a controller on kinds.Deployment, no types, no CRD', async () => {
    const cwd = await init('deploy-operator');
    const before = await readTree(cwd);
    const stdout = await ok(cwd, 'create', 'api', '--group', 'apps', '--version', 'v1', '--kind', 'Deployment', '--resource=false', '--controller');
    expect(stdout).not.toContain('Next: describe');

    const after = await readTree(cwd);
    const added = [...after.keys()].filter((path) => !before.has(path));
    expect(added).toEqual(['src/controllers/deployment_controller.test.ts', 'src/controllers/deployment_controller.ts']);
    const controller = after.get('src/controllers/deployment_controller.ts')!;
    expect(controller).toContain('    .for(kinds.Deployment)\n    .reconcile((deployment, ctx) => {');
    expect(controller).toContain('// +kubebuilder:rbac:groups=apps,resources=deployments,verbs=get;list;watch;create;update;patch;delete');
    expect(after.get('src/main.ts')).toContain('setupDeploymentController(mgr);');
    expect(after.get('config/crd/kustomization.yaml')).toBe(before.get('config/crd/kustomization.yaml'));
    expect(after.get('PROJECT')).toMatch(/\n {2}- controller: true\n {4}group: apps\n {4}kind: Deployment\n {4}path: k8s\.io\/api\/apps\/v1\n {4}plural: deployments\n {4}version: v1\n/);

    await ok(cwd, 'manifests');
    const manifests = await readTree(cwd);
    expect([...manifests.keys()].filter((path) => path.startsWith('config/crd/bases/'))).toEqual([]);
    expect(manifests.get('config/rbac/role.yaml')).toMatch(/- apps\n {4}resources:\n {6}- deployments\n/);
  });

  it('--group core --kind Pod needs no --resource=false: the core group never gets a CRD', async () => {
    const cwd = await init('pod-operator');
    await ok(cwd, 'create', 'api', '--group', 'core', '--version', 'v1', '--kind', 'Pod');
    const tree = await readTree(cwd);
    expect(tree.get('src/controllers/pod_controller.ts')).toContain('.for(kinds.Pod)');
    expect(tree.get('src/controllers/pod_controller.ts')).toContain('+kubebuilder:rbac:groups=core,resources=pods,');
    expect([...tree.keys()].some((path) => path.startsWith('src/api/'))).toBe(false);
    expect(tree.get('PROJECT')).toMatch(/- controller: true\n {4}group: core\n {4}kind: Pod\n {4}path: k8s\.io\/api\/core\/v1\n/);
  });

  it.each([
    [['--group', 'core', '--version', 'v1', '--kind', 'Pod', '--resource'], /^error: --resource: Pod is a built-in kind of core\/v1; opgen writes no CRD for it \(pass --resource=false to scaffold a controller for it\)$/],
    [['--group', 'core', '--version', 'v1', '--kind', 'Widget'], /^error: --group core --version v1 --kind Widget: not a built-in kind opgen has a handle for \(core\/v1 kinds: Pod, Service, .*\)$/],
    [['--group', 'apps', '--version', 'v1', '--kind', 'Deployment', '--resource=false', '--plural', 'deploys'], /^error: --plural: Deployment is a built-in kind; the cluster decides its plural$/],
  ])('refuses %j with one located line, writing nothing', async (flags, message) => {
    const cwd = await init('pod-operator');
    const before = await readTree(cwd);
    const result = await opgen(cwd, 'create', 'api', ...flags);
    expect(result.code).toBe(1);
    expect(result.stderr.trimEnd()).toMatch(message);
    expect(await readTree(cwd)).toEqual(before);
  });

  it('refuses a cluster-scoped built-in kind in a namespaced project', async () => {
    const cwd = await init('node-operator', '--namespaced');
    const before = await readTree(cwd);
    const result = await opgen(cwd, 'create', 'api', '--group', 'core', '--version', 'v1', '--kind', 'Node');
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'PROJECT: error: Node is cluster-scoped, but this operator only has rights in its own namespace (the project was made with opgen init --namespaced)\n',
    );
    expect(await readTree(cwd)).toEqual(before);
  });

  it('batch CronJob without --resource=false is a CRD of batch.<domain>, as in kubebuilder\'s CronJob tutorial', async () => {
    const cwd = await init('cronjob-operator');
    await ok(cwd, 'create', 'api', '--group', 'batch', '--version', 'v1', '--kind', 'CronJob');
    await ok(cwd, 'manifests');
    const tree = await readTree(cwd);
    expect(tree.has('src/api/v1/cronjob_types.ts')).toBe(true);
    expect(tree.has('config/crd/bases/batch.example.com_cronjobs.yaml')).toBe(true);
  });

  it('the table matches the runtime\'s kinds.* handles', async () => {
    const source = await readFile(join(repo, 'runtime/src/client/kinds.ts'), 'utf8');
    const runtime = [...source.matchAll(/defineKind<\w+, (?:true|false)>\(\{ group: '([^']*)', version: '(\w+)', kind: '(\w+)', plural: '(\w+)', namespaced: (true|false) \}\)/g)].map(
      (m) => [m[1], m[2], m[3], m[4], m[5] === 'true'],
    );
    expect(runtime.length).toBeGreaterThan(20);
    expect(builtinKinds.map((b) => [b.apiGroup, b.version, b.kind, b.plural, b.namespaced])).toEqual(runtime);
  });
});

describe('create api for an external kind (kubebuilder\'s --external-api-*)', () => {
  const certificate = ['--group', 'cert-manager', '--version', 'v1', '--kind', 'Certificate', '--external-api-domain', 'io'];

  it('a handle file under src/: written once, imported by the controller, recorded in PROJECT as kubebuilder does', async () => {
    const cwd = await init('cert-operator');
    const stdout = await ok(cwd, 'create', 'api', ...certificate, '--external-api-path', 'src/external/certificate.ts', '--external-api-module', '@acme/cert-manager-api@^1.2.0');
    expect(stdout).toMatch(/^CREATE src\/external\/certificate\.ts$/m);
    const tree = await readTree(cwd);
    expect(tree.get('src/external/certificate.ts')).toContain(
      "export const Certificate = defineKind<Certificate, true>({ group: 'cert-manager.io', version: 'v1', kind: 'Certificate', plural: 'certificates', namespaced: true });",
    );
    const controller = tree.get('src/controllers/certificate_controller.ts')!;
    expect(controller).toContain("import { Certificate } from '../external/certificate.js';");
    expect(controller).toContain('    .for(Certificate)\n    .reconcile((certificate, ctx) => {');
    expect(controller).toContain('// +kubebuilder:rbac:groups=cert-manager.io,resources=certificates,verbs=');
    expect(tree.get('PROJECT')).toMatch(
      /- controller: true\n {4}domain: io\n {4}group: cert-manager\n {4}kind: Certificate\n {4}path: src\/external\/certificate\.ts\n {4}plural: certificates\n {4}version: v1\n {4}external: true\n {4}module: "@acme\/cert-manager-api@\^1\.2\.0"\n/,
    );
    expect((JSON.parse(tree.get('package.json')!) as { dependencies: Record<string, string> }).dependencies['@acme/cert-manager-api']).toBe('^1.2.0');

    // It is no kind of the project's: a kind of the project's own group still fits, and manifests writes no CRD for it.
    await ok(cwd, 'create', 'api', '--group', 'shop', '--version', 'v1', '--kind', 'BookStore');
    await ok(cwd, 'manifests');
    const after = await readTree(cwd);
    expect([...after.keys()].filter((path) => path.startsWith('config/crd/bases/'))).toEqual(['config/crd/bases/shop.example.com_bookstores.yaml']);
    expect(after.get('config/rbac/role.yaml')).toMatch(/- cert-manager\.io\n {4}resources:\n {6}- certificates\n/);
  });

  it('an npm module: the controller imports the handle from it', async () => {
    const cwd = await init('cert-operator');
    await ok(cwd, 'create', 'api', ...certificate, '--external-api-path', '@acme/cert-manager-api/v1');
    const tree = await readTree(cwd);
    expect(tree.get('src/controllers/certificate_controller.ts')).toContain("import { Certificate } from '@acme/cert-manager-api/v1';");
    expect([...tree.keys()].some((path) => path.startsWith('src/external/'))).toBe(false);
  });

  it.each([
    [['--external-api-domain', 'io'], /^error: --external-api-domain needs --external-api-path, the module of the external kind's handle$/],
    [['--external-api-path', '../elsewhere.ts'], /^error: --external-api-path \.\.\/elsewhere\.ts: expected an npm module \(e\.g\. @acme\/cert-manager-api\) or a \.ts file under src\/ outside src\/api/],
    [['--external-api-path', 'src/external/c.ts', '--resource'], /^error: --resource: an external kind's CRD belongs to its own project; opgen writes none \(leave out --resource\)$/],
    [['--external-api-path', 'src/external/c.ts', '--external-api-module', 'nover'], /^error: --external-api-module nover: expected <npm package>@<version range>/],
  ])('refuses %j with one line, writing nothing', async (flags, message) => {
    const cwd = await init('cert-operator');
    const before = await readTree(cwd);
    const result = await opgen(cwd, 'create', 'api', '--group', 'cert-manager', '--version', 'v1', '--kind', 'Certificate', ...flags);
    expect(result.code).toBe(1);
    expect(result.stderr.trimEnd()).toMatch(message);
    expect(await readTree(cwd)).toEqual(before);
  });
});

describe('kinds named like JavaScript globals and runtime kinds', () => {
  it('Promise, Map, CronJob and Pod CRDs beside built-in Pod and Deployment and external Certificate controllers: manifests and tsc pass', async () => {
    const cwd = await init('clash-operator', '--multigroup');
    for (const kind of ['Promise', 'Map', 'CronJob', 'Pod']) await ok(cwd, 'create', 'api', '--group', 'batch', '--version', 'v1', '--kind', kind);
    await ok(cwd, 'create', 'api', '--group', 'core', '--version', 'v1', '--kind', 'Pod');
    await ok(cwd, 'create', 'api', '--group', 'apps', '--version', 'v1', '--kind', 'Deployment', '--resource=false');
    await ok(cwd, 'create', 'api', '--group', 'cert-manager', '--version', 'v1', '--kind', 'Certificate', '--external-api-domain', 'io', '--external-api-path', 'src/external/certificate.ts');
    await ok(cwd, 'manifests');

    const tree = await readTree(cwd);
    expect(tree.get('src/controllers/batch/promise_controller.ts')).toContain("import { Promise as PromiseKind } from '../../api/batch/v1/promise_types.js';");
    expect(tree.get('src/main.ts')).toContain("import { setupPodController as setupCorePodController } from './controllers/core/pod_controller.js';");
    for (const plural of ['promises', 'maps', 'cronjobs', 'pods']) expect(tree.has(`config/crd/bases/batch.example.com_${plural}.yaml`)).toBe(true);

    // The project's own compiler on the scaffold, with opgen's installed packages standing in for npm install.
    await symlink(join(repo, 'node_modules'), join(cwd, 'node_modules'), 'dir');
    const tsc = await execa(join(repo, 'node_modules/.bin/tsc'), ['--noEmit', '-p', 'tsconfig.json'], { cwd, reject: false, all: true });
    expect(tsc.all).toBe('');
    expect(tsc.exitCode).toBe(0);
  });
});
