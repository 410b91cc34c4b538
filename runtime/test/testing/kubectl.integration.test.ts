import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KUBERNETES_VERSION, kubectlFor, startControlPlane, type ControlPlane, type Kubectl } from '../../src/testing/index.js';

describe('kubectlFor', () => {
  let cp: ControlPlane;
  let kubectl: Kubectl;
  let scratch: string;

  beforeAll(async () => {
    cp = await startControlPlane({ users: [{ name: 'viewer' }] });
    kubectl = kubectlFor(cp);
    scratch = mkdtempSync(join(tmpdir(), 'opgen-kubectl-'));
  });
  afterAll(async () => {
    await cp?.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('runs the kubectl of the control plane binaries against its API server', async () => {
    const version = JSON.parse(await kubectl(['version', '-o', 'json']));

    expect(version.clientVersion.gitVersion).toBe(`v${KUBERNETES_VERSION}`);
    expect(version.serverVersion.gitVersion).toBe(`v${KUBERNETES_VERSION}`);
  });

  it('applies plain objects server-side and gets them back as stored, or undefined', async () => {
    await kubectl.apply([
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'prices', namespace: 'shop', labels: { tier: 'a' } }, data: { book: '12' } },
    ]);

    const prices = await kubectl.get('configmap', 'prices', { namespace: 'shop' });
    expect(prices.data).toEqual({ book: '12' });
    expect(prices.metadata.managedFields).toEqual([expect.objectContaining({ manager: 'kubectl', operation: 'Apply' })]);
    expect(await kubectl.get('configmap', 'prices')).toBeUndefined();
    expect(await kubectl.get('configmap', 'absent', { namespace: 'shop' })).toBeUndefined();
  });

  it('lists objects by namespace and label selector', async () => {
    await kubectl.apply([
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a1', namespace: 'default', labels: { tier: 'a' } } },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'b1', namespace: 'default', labels: { tier: 'b' } } },
    ]);

    const names = (items: Array<{ metadata: { name: string } }>) => items.map((item) => item.metadata.name);
    expect(names(await kubectl.list('configmaps', { selector: 'tier=a' }))).toEqual(['a1']);
    expect(names(await kubectl.list('configmaps', { namespace: 'shop', selector: 'tier' }))).toEqual(['prices']);
  });

  it('rejects with what kubectl said when it fails, and run() reports the exit instead', async () => {
    await expect(kubectl(['get', 'gadgets'])).rejects.toThrow(
      /^kubectl get gadgets exited 1: error: the server doesn't have a resource type "gadgets"$/,
    );

    const result = await kubectl.run(['get', 'gadgets']);
    expect(result).toEqual({ code: 1, stdout: '', stderr: expect.stringContaining('doesn\'t have a resource type "gadgets"') });
  });

  it('acts as another identity when given its kubeconfig, per call or for every call', async () => {
    const viewer = cp.userKubeConfig('viewer').kubeconfigPath;

    const denied = await kubectl.run(['get', 'configmaps'], { kubeconfig: viewer });
    expect(denied.code).toBe(1);
    expect(denied.stderr).toContain('User "viewer" cannot list resource "configmaps"');
    await expect(kubectlFor(cp, { kubeconfig: viewer })(['auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username}'])).resolves.toBe('viewer');
    await expect(kubectl(['auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username}'])).resolves.not.toBe('viewer');
  });

  it('reads relative paths from cwd and manifests from input', async () => {
    writeFileSync(join(scratch, 'cm.json'), JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'from-file' } }));

    await kubectlFor(cp, { cwd: scratch })(['apply', '-f', 'cm.json']);
    await kubectl(['apply', '-f', '-'], { input: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: from-input\n' });

    expect((await kubectl.get('configmap', 'from-file'))?.metadata.name).toBe('from-file');
    expect((await kubectl.get('configmap', 'from-input'))?.metadata.name).toBe('from-input');
  });

  it('keeps its discovery cache in the control plane\'s dir, not in ~/.kube', async () => {
    const home = process.env.HOME;
    process.env.HOME = scratch;
    try {
      await kubectl(['get', 'namespaces']);
    } finally {
      process.env.HOME = home;
    }

    expect(readdirSync(scratch)).not.toContain('.kube');
    expect(existsSync(join(cp.dir, 'kubectl-cache', 'discovery'))).toBe(true);
  });
});
