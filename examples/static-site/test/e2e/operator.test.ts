import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { kinds } from '@opgen/runtime';
import type { ChartResource } from '@opgen/runtime/helm';
import { buildProject, kubectlFor, startControlPlane, startOperator, type ControlPlane, type Kubectl, type Operator } from '@opgen/runtime/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

// A chart-backed operator as a user with kubectl drives it: the built operator runs as
// `node dist/main.js`, as the manager's ServiceAccount bound to the role create api wrote,
// against a real API server with kube-controller-manager. It renders ../charts/static-site
// (copied to helm-charts/) with the helm binary the repository's tests build.
const project = fileURLToPath(new URL('../..', import.meta.url));
const helm = execFileSync('bash', [fileURLToPath(new URL('../../../../hack/helm/build.sh', import.meta.url)), '--print'], { encoding: 'utf8' }).trim();
const ns = 'sites';
const name = 'staticsite-sample';
const poll = { timeout: 30_000, interval: 250 };

let controlPlane: ControlPlane | undefined;
let operator: Operator | undefined;
let kubectl: Kubectl;

beforeAll(async () => {
  [controlPlane] = await Promise.all([startControlPlane({ controllerManager: true }), buildProject(project)]);
  kubectl = kubectlFor(controlPlane, { cwd: project });
  await kubectl(['apply', '--server-side', '-k', 'config/crd']);
  await kubectl(['wait', '--for=condition=Established', 'crd/staticsites.web.example.com']);
  await kubectl(['create', 'namespace', ns]);
  await kubectl(['create', 'namespace', 'system']);
  await kubectl(['apply', '--server-side', '-k', 'config/rbac']);
  const manager = await controlPlane.serviceAccountKubeConfig('system', 'controller-manager');
  operator = await startOperator({ dir: project, kubeconfigPath: manager.kubeconfigPath, env: { HELM: helm } });
}, 180_000);

beforeEach(({ onTestFailed }) => onTestFailed(() => console.log(operator?.output())));

afterAll(async () => {
  await operator?.stop();
  await controlPlane?.stop();
});

const site = () => kubectl.get<ChartResource>('staticsite', name, { namespace: ns });
const deployment = () => kubectl.get<kinds.Deployment>('deployment', name, { namespace: ns });
const service = () => kubectl.get<kinds.Service>('service', name, { namespace: ns });
const page = async () => (await kubectl.get<kinds.ConfigMap>('configmap', `${name}-content`, { namespace: ns }))?.data?.['index.html'];
const condition = async (type: string) => (await site())?.status?.conditions?.find((c) => c.type === type);
const patch = (spec: unknown) => kubectl(['patch', 'staticsite', name, '-n', ns, '--type=merge', '-p', JSON.stringify({ spec })]);

describe('static-site operator', () => {
  it('installs the chart for the sample: ConfigMap, Deployment, Service, and reports Deployed', async () => {
    await kubectl(['apply', '--server-side', '-k', 'config/samples', '-n', ns]);

    await expect.poll(page, poll).toBe('<h1>Hello from a chart-backed operator</h1>');
    await expect.poll(async () => (await deployment())?.spec?.template.spec?.containers[0]?.image, poll).toBe('nginx:1.27');
    await expect.poll(async () => (await service())?.spec?.ports?.[0]?.port, poll).toBe(80);
    await expect.poll(async () => (await condition('Deployed'))?.reason, poll).toBe('InstallSuccessful');
    const cr = await site();
    expect(cr?.status?.deployedRelease?.name).toBe(name);
    expect(cr?.metadata?.finalizers).toEqual(['helm.sdk.operatorframework.io/uninstall-release']);
    // kube-controller-manager acts on what the operator applied.
    await expect.poll(async () => (await deployment())?.status?.observedGeneration, poll).toBe(1);
  });

  it('upgrades the release when the spec changes: new page, more replicas, pods rolled', async () => {
    const before = (await deployment())?.spec?.template.metadata?.annotations?.['static-site/content-sha256'];
    await patch({ content: '<h1>Second edition</h1>', replicaCount: 3 });

    await expect.poll(page, poll).toBe('<h1>Second edition</h1>');
    await expect.poll(async () => (await deployment())?.spec?.replicas, poll).toBe(3);
    expect((await deployment())?.spec?.template.metadata?.annotations?.['static-site/content-sha256']).not.toBe(before);
    await expect.poll(async () => (await condition('Deployed'))?.reason, poll).toBe('UpgradeSuccessful');
  });

  it('refuses a spec the chart\'s values.schema.json forbids, before the operator sees it', async () => {
    await expect(patch({ replicaCount: -1 })).rejects.toThrow(/spec\.replicaCount.*greater than or equal to 0/);
    expect((await deployment())?.spec?.replicas).toBe(3);
  });

  it('prunes the Service once the chart no longer renders it', async () => {
    await patch({ service: { enabled: false, port: 80 } });
    await expect.poll(service, poll).toBeUndefined();
    expect((await site())?.status?.deployedRelease?.objects?.map((o) => o.kind)).not.toContain('Service');
  });

  it('repairs drift: an edited page is changed back, a deleted Deployment is recreated', async () => {
    await kubectl(['patch', 'configmap', `${name}-content`, '-n', ns, '--type=merge', '-p', JSON.stringify({ data: { 'index.html': 'defaced' } })]);
    await expect.poll(page, poll).toBe('<h1>Second edition</h1>');

    const uid = (await deployment())?.metadata?.uid;
    await kubectl(['delete', 'deployment', name, '-n', ns, '--cascade=orphan']);
    await expect.poll(async () => (await deployment())?.metadata?.uid, poll).toSatisfy((now) => now !== undefined && now !== uid);
    expect((await deployment())?.spec?.replicas).toBe(3);
  });

  it('uninstalls the release when the StaticSite is deleted', async () => {
    await kubectl(['delete', 'staticsite', name, '-n', ns, '--wait=true', '--timeout=30s']);
    // The finalizer deleted them: no wait for the garbage collector's discovery resync.
    expect(await deployment()).toBeUndefined();
    expect(await page()).toBeUndefined();
    expect(await site()).toBeUndefined();
  });
});
