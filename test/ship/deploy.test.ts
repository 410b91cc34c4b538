import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startControlPlane, type ControlPlane } from '@opgen/runtime/testing';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { opgen } from '../scaffold/run.js';
import { kubectlBinary, kubectlWith, linkCli, npmRun, project, projectDir, projectFile, scaffoldOperator, writeKubeconfig, type ScriptResult } from './support.js';

// The generated npm scripts that ship an operator, which run opgen's deploy, undeploy,
// install, uninstall and build-installer: deploy, undeploy, crds:install, crds:uninstall and
// build-installer, against a real API server with kube-controller-manager (namespace deletion).

const image = 'registry.example.com/team/demo-volume-operator:0.1.0';
// Undeploying waits for the namespace controller to empty and remove the namespace.
const clusterTestTimeout = 120_000;
let work: string;
let dir: string;
let controlPlane: ControlPlane;
let kubectlPath: string;
let kubectl: ReturnType<typeof kubectlWith>;
let env: Record<string, string>;

beforeAll(async () => {
  ({ work, dir } = await projectDir());
  await scaffoldOperator(dir);
  await linkCli(dir);
  // A CRD past the 256 KiB that client-side apply's last-applied annotation may hold.
  const types = await projectFile(dir, 'src/api/v1/demovolume_types.ts');
  const notes = `  /** notes: ${'free text about the volume, '.repeat(11_000)}*/\n  notes?: string;\n`;
  await writeFile(join(dir, 'src/api/v1/demovolume_types.ts'), types.replace('  size: int32;\n', `  size: int32;\n${notes}`));
  const manifests = await opgen(dir, 'manifests');
  expect(manifests.stderr).toBe('');
  [controlPlane, kubectlPath] = await Promise.all([startControlPlane({ controllerManager: true, users: [{ name: 'developer' }] }), kubectlBinary()]);
  kubectl = kubectlWith(kubectlPath, controlPlane.kubeconfigPath);
  env = { KUBECTL: kubectlPath, KUBECONFIG: controlPlane.kubeconfigPath };
});

afterAll(async () => {
  await controlPlane?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

/** Every object of the project left in the cluster, by its label or its namespace. */
async function leftovers(): Promise<string[]> {
  const kinds = 'namespaces,customresourcedefinitions,clusterroles,clusterrolebindings,roles,rolebindings,serviceaccounts,services,deployments';
  const labelled = await kubectl('get', kinds, '--all-namespaces', '-l', project.label, '-o', 'name');
  expect(labelled.exitCode, labelled.all).toBe(0);
  const namespace = await kubectl('get', 'namespace', project.namespace, '--ignore-not-found', '-o', 'name');
  return [...new Set([...labelled.stdout.split('\n'), namespace.stdout])].filter(Boolean);
}

/** Waits until the API server serves the project's kind: its CRD is established. */
async function kindEstablished(): Promise<void> {
  const established = await kubectl('wait', '--for=condition=established', '--timeout=30s', `crd/${project.crd}`);
  expect(established.exitCode, established.all).toBe(0);
}

/**
 * `npm run undeploy`, which must leave nothing of the project. It waits for the namespace
 * to go: when that takes too long, the namespace's status says what holds it.
 */
async function undeployAll(): Promise<ScriptResult> {
  const undeploy = await npmRun(dir, 'undeploy', [], env, 90_000);
  const holdUp = undeploy.exitCode === 0 ? '' : (await kubectl('get', 'namespace', project.namespace, '--ignore-not-found', '-o', 'jsonpath={.status}')).stdout;
  expect(undeploy.exitCode, `${undeploy.all}\n${holdUp}`).toBe(0);
  expect(await leftovers()).toEqual([]);
  return undeploy;
}

/** The one line a refusal prints, with nothing on stdout. */
function expectRefusal(result: ScriptResult, message: RegExp): void {
  expect(result.exitCode, result.stderr).toBe(1);
  expect(result.stdout).toBe('');
  expect(result.stderr.split('\n')).toHaveLength(1);
  expect(result.stderr).toMatch(message);
}

describe('npm run deploy refuses, having applied nothing,', () => {
  it('without an image', async () => {
    expectRefusal(
      await npmRun(dir, 'deploy', [], env),
      /^error: no image to deploy: pass --image <registry>\/<name>:<tag> or set IMG \(e\.g\. IMG=.* npm run deploy\)$/,
    );
    expectRefusal(await npmRun(dir, 'build-installer', [], env), /^error: no image to deploy/);
    expectRefusal(
      await npmRun(dir, 'deploy', ['--image', 'Registry.Example.com/Team/Operator:latest'], env),
      /^error: "Registry\.Example\.com\/Team\/Operator:latest" is not an image reference: expected \[<registry>\/\]<name>\[:<tag>\]\[@<digest>\], lower case/,
    );
    expect(await leftovers()).toEqual([]);
  });

  it('without a kubeconfig', async () => {
    const result = await npmRun(dir, 'deploy', [], { KUBECTL: kubectlPath, IMG: image });
    expectRefusal(result, /^error: no cluster to talk to: kubectl has no current context \(set KUBECONFIG, pass --kubeconfig <file>, or run kubectl config use-context <name>\)$/);
    expect(await leftovers()).toEqual([]);
  });

  it('when the cluster does not answer', async () => {
    const unreachable = join(work, 'unreachable.kubeconfig');
    // Port 1 on loopback: nothing listens there, so the connection is refused at once.
    await writeKubeconfig(unreachable, 'https://127.0.0.1:1');
    for (const script of ['deploy', 'undeploy', 'crds:install', 'crds:uninstall']) {
      const result = await npmRun(dir, script, ['--kubeconfig', unreachable], { KUBECTL: kubectlPath, IMG: image });
      expectRefusal(result, /^error: cannot reach the Kubernetes API server at https:\/\/127\.0\.0\.1:1: .*127\.0\.0\.1:1.*refused/);
    }
    expect(await leftovers()).toEqual([]);
  });

  it('when the credentials may not create CRDs', async () => {
    const developer = controlPlane.userKubeConfig('developer').kubeconfigPath;
    const result = await npmRun(dir, 'deploy', ['--image', image], { KUBECTL: kubectlPath, KUBECONFIG: developer });
    expectRefusal(result, /^error: your credentials for https:\/\/127\.0\.0\.1:\d+ may not create CustomResourceDefinitions: this needs a cluster administrator$/);
    expect(await leftovers()).toEqual([]);
  });

  it('when kubectl is missing', async () => {
    const result = await npmRun(dir, 'deploy', ['--image', image], { ...env, KUBECTL: join(work, 'no-kubectl') });
    expectRefusal(result, /^error: .*no-kubectl not found: install kubectl, or set KUBECTL to its path$/);
  });
});

describe('npm run deploy and undeploy', () => {
  it('apply config/default server-side with the image set, and delete every object again', async () => {
    const kustomizations = await Promise.all(['config/manager/kustomization.yaml', 'config/default/kustomization.yaml'].map((f) => projectFile(dir, f)));
    const deploy = await npmRun(dir, 'deploy', ['--image', image], env);
    expect(deploy.exitCode, deploy.all).toBe(0);
    expect(deploy.stderr).toBe('');
    expect(deploy.stdout).toContain(`deployment.apps/${project.name}-controller-manager serverside-applied`);
    expect(deploy.stdout).toContain(`customresourcedefinition.apiextensions.k8s.io/${project.crd} serverside-applied`);

    const deployment = await kubectl('get', 'deployment', '-n', project.namespace, `${project.name}-controller-manager`, '-o', 'json', '--show-managed-fields');
    const manager = JSON.parse(deployment.stdout) as {
      spec: { template: { spec: { containers: { name: string; image: string }[] } } };
      metadata: { managedFields: { manager: string; operation: string }[] };
    };
    expect(manager.spec.template.spec.containers.map((c) => [c.name, c.image])).toEqual([['manager', image]]);
    expect(manager.metadata.managedFields).toContainEqual(expect.objectContaining({ manager: project.name, operation: 'Apply' }));
    // The image went into the cluster, not into config/.
    expect(await Promise.all(['config/manager/kustomization.yaml', 'config/default/kustomization.yaml'].map((f) => projectFile(dir, f)))).toEqual(kustomizations);

    // Every object carries the project's label, so nothing of it hides from `kubectl get -l`.
    const built = await kubectl('kustomize', join(dir, 'config/default'));
    const objects = parseAllDocuments(built.stdout).map((d) => d.toJS() as { kind: string; metadata: { labels?: Record<string, string> } });
    expect(objects.filter((o) => o.metadata.labels?.['app.kubernetes.io/name'] !== project.name)).toEqual([]);
    expect((await leftovers()).length).toBe(objects.length);

    // Deploying again changes nothing and conflicts with nothing.
    const again = await npmRun(dir, 'deploy', [], { ...env, IMG: image });
    expect(again.exitCode, again.all).toBe(0);

    // Objects of the project's kinds go with their CRD.
    await kindEstablished();
    const volume = await kubectl.apply({ apiVersion: 'storage.civo.com/v1', kind: 'DemoVolume', metadata: { name: 'data', namespace: 'default' }, spec: { size: 1 } });
    expect(volume.exitCode, volume.all).toBe(0);

    const undeploy = await undeployAll();
    expect(undeploy.stdout.indexOf(`customresourcedefinition.apiextensions.k8s.io "${project.crd}" deleted`)).toBe(0);
  }, clusterTestTimeout);

  it('when the API server rejects an object: say so, and undeploy removes what was applied', async () => {
    // A typo in the manager's Deployment ("resource" for "resources"), which the API server's
    // strict field validation rejects while the objects before it are applied.
    const path = join(dir, 'config/manager/manager.yaml');
    const original = await readFile(path, 'utf8');
    const [namespace, deployment] = parseAllDocuments(original);
    deployment!.setIn(['spec', 'template', 'spec', 'containers', 0, 'resource'], deployment!.createNode({ limits: { cpu: '1' } }));
    await writeFile(path, `${namespace!.toString()}${deployment!.toString()}`);
    try {
      const deploy = await npmRun(dir, 'deploy', ['--image', image], env);
      expect(deploy.exitCode, deploy.all).toBe(1);
      expect(deploy.stderr).toMatch(/^Error from server: .*Kind=Deployment\): \.spec\.template\.spec\.containers\[name="manager"\]\.resource: field not declared in schema\n/);
      expect(deploy.stderr).toMatch(
        /\nerror: deploy failed \(kubectl apply, above\): objects before the failure may be applied; fix the cause and run npm run deploy again, or remove them with npm run undeploy$/,
      );
      expect(deploy.stdout).toContain(`customresourcedefinition.apiextensions.k8s.io/${project.crd} serverside-applied`);
      expect(await leftovers()).toContain(`customresourcedefinition.apiextensions.k8s.io/${project.crd}`);

      await undeployAll();
    } finally {
      await writeFile(path, original);
    }
  }, clusterTestTimeout);
});

describe('npm run crds:install and crds:uninstall', () => {
  it('apply the CRDs server-side, so one too large for client-side apply installs', async () => {
    const crdFile = join(dir, 'config/crd/bases/storage.civo.com_demovolumes.yaml');
    expect((await readFile(crdFile)).length).toBeGreaterThan(262_144);
    // Client-side apply stores the whole object in an annotation, which may hold 256 KiB.
    const clientSide = await kubectl('apply', '-f', crdFile);
    expect(clientSide.exitCode).toBe(1);
    expect(clientSide.stderr).toMatch(/metadata\.annotations: Too long: may not be (more than|longer than) 262144 bytes/);

    const install = await npmRun(dir, 'crds:install', [], env);
    expect(install.exitCode, install.all).toBe(0);
    expect(install.stdout).toBe(`customresourcedefinition.apiextensions.k8s.io/${project.crd} serverside-applied`);
    await kindEstablished();

    const uninstall = await npmRun(dir, 'crds:uninstall', [], env, 90_000);
    expect(uninstall.exitCode, uninstall.all).toBe(0);
    expect(await leftovers()).toEqual([]);
  }, clusterTestTimeout);
});

describe('npm run build-installer', () => {
  it('writes dist/install.yaml, which git keeps and kubectl apply --server-side installs', async () => {
    const build = await npmRun(dir, 'build-installer', ['--image', image], {});
    expect(build.exitCode, build.all).toBe(0);
    expect(build.stdout).toBe(`wrote dist/install.yaml with image ${image}: kubectl apply --server-side -f dist/install.yaml`);
    const installer = parseAllDocuments(await projectFile(dir, 'dist/install.yaml')).map(
      (d) => d.toJS() as { kind: string; metadata: { name: string }; spec?: { template?: { spec: { containers: { image: string }[] } } } },
    );
    expect(installer.map((o) => o.kind)).toEqual(expect.arrayContaining(['Namespace', 'CustomResourceDefinition', 'ClusterRole', 'ClusterRoleBinding', 'Role', 'ServiceAccount', 'Deployment']));
    expect(installer.find((o) => o.kind === 'Deployment')?.spec?.template?.spec.containers[0]?.image).toBe(image);

    // The installer is committed (a release URL serves it); the compiled JavaScript beside it is not.
    await execa('git', ['init', '-q'], { cwd: dir });
    const ignored = async (path: string) => (await execa('git', ['check-ignore', '-q', path], { cwd: dir, reject: false })).exitCode === 0;
    expect(await ignored('dist/install.yaml')).toBe(false);
    expect(await ignored('dist/main.js')).toBe(true);

    const apply = await kubectl('apply', '--server-side', '-f', join(dir, 'dist/install.yaml'));
    expect(apply.exitCode, apply.all).toBe(0);
    const applied = await kubectl('get', 'deployment', '-n', project.namespace, `${project.name}-controller-manager`, '-o', 'jsonpath={.spec.template.spec.containers[0].image}');
    expect(applied.stdout).toBe(image);

    await undeployAll();
  }, clusterTestTimeout);
});
