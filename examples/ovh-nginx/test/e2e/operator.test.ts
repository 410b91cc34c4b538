import { fileURLToPath } from 'node:url';
import type { kinds } from '@opgen/runtime';
import { buildProject, kubectlFor, startControlPlane, startOperator, type ControlPlane, type Kubectl, type Operator } from '@opgen/runtime/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { OvhNginx } from '../../src/api/v1/ovhnginx_types.js';

// The OVHcloud tutorial's walk-through, as a user with kubectl does it: create an OvhNginx,
// change its replicas and port, delete its Service, delete it. The operator runs as
// `node dist/main.js` against a real API server with kube-controller-manager, whose
// Deployment and garbage-collector controllers act on what the operator writes.
const project = fileURLToPath(new URL('../..', import.meta.url));
const ns = 'test-go-operator';
const name = 'ovhnginx-sample';
const poll = { timeout: 30_000, interval: 250 };

let controlPlane: ControlPlane | undefined;
let operator: Operator | undefined;
let kubectl: Kubectl;

beforeAll(async () => {
  [controlPlane] = await Promise.all([startControlPlane({ controllerManager: true }), buildProject(project)]);
  kubectl = kubectlFor(controlPlane, { cwd: project });
  await kubectl(['apply', '--server-side', '-k', 'config/crd']);
  await kubectl(['wait', '--for=condition=Established', 'crd/ovhnginxes.tutorials.ovhcloud.com']);
  await kubectl(['create', 'namespace', ns]);
  // The manager's ServiceAccount, bound to the role `opgen manifests` wrote from the RBAC
  // markers (config/rbac, as `npm run deploy` installs it): it can do only what they ask for.
  await kubectl(['create', 'namespace', 'system']);
  await kubectl(['apply', '--server-side', '-k', 'config/rbac']);
  const manager = await controlPlane.serviceAccountKubeConfig('system', 'controller-manager');
  operator = await startOperator({ dir: project, kubeconfigPath: manager.kubeconfigPath });
}, 180_000);

// A failing test shows what the operator logged.
beforeEach(({ onTestFailed }) => onTestFailed(() => console.log(operator?.output())));

afterAll(async () => {
  await operator?.stop();
  await controlPlane?.stop();
});

const deployment = () => kubectl.get<kinds.Deployment>('deployment', name, { namespace: ns });
const service = () => kubectl.get<kinds.Service>('service', name, { namespace: ns });
const configMap = () => kubectl.get<kinds.ConfigMap>('configmap', name, { namespace: ns });
const ovhNginx = () => kubectl.get<OvhNginx>('ovhnginx', name, { namespace: ns });

/** What the user checks: replicas and port of the Deployment, port and type of the Service. */
async function served() {
  const [d, s] = await Promise.all([deployment(), service()]);
  return {
    replicas: d?.spec?.replicas,
    containerPort: d?.spec?.template.spec?.containers[0]?.ports?.[0]?.containerPort,
    image: d?.spec?.template.spec?.containers[0]?.image,
    serviceType: s?.spec?.type,
    servicePort: s?.spec?.ports?.[0]?.port,
  };
}

describe('OvhNginx operator', () => {
  it('creates an nginx Deployment and a LoadBalancer Service for a new OvhNginx', async () => {
    await kubectl(['apply', '--server-side', '-k', 'config/samples', '-n', ns]);

    await expect.poll(served, poll).toEqual({ replicas: 1, containerPort: 80, image: 'nginx:1.27', serviceType: 'LoadBalancer', servicePort: 80 });
    await expect.poll(async () => (await configMap())?.data?.['default.conf'], poll).toContain('listen 80;');

    const owner = await ovhNginx();
    for (const object of [await deployment(), await service(), await configMap()]) {
      expect(object?.metadata?.ownerReferences).toEqual([
        { apiVersion: 'tutorials.ovhcloud.com/v1', kind: 'OvhNginx', name, uid: owner!.metadata!.uid, controller: true, blockOwnerDeletion: true },
      ]);
      // Written with server-side apply, as the controller's own field manager.
      expect(object?.metadata?.managedFields?.find((f) => f.manager === 'ovhnginx')?.operation).toBe('Apply');
    }
    // kube-controller-manager acts on the Deployment: it makes its ReplicaSet.
    await expect.poll(async () => (await deployment())?.status?.observedGeneration, poll).toBe(1);
    await expect
      .poll(async () => (await ovhNginx())?.status?.conditions?.find((c) => c.type === 'Ready')?.status, poll)
      .toBe('True');
  });

  it('updates both when replicaCount and port change', async () => {
    await kubectl(['patch', 'ovhnginx', name, '-n', ns, '--type=merge', '-p', JSON.stringify({ spec: { replicaCount: 2, port: 8080 } })]);

    await expect.poll(served, poll).toEqual({ replicas: 2, containerPort: 8080, image: 'nginx:1.27', serviceType: 'LoadBalancer', servicePort: 8080 });
    await expect.poll(async () => (await configMap())?.data?.['default.conf'], poll).toContain('listen 8080;');
  });

  it('rejects a port outside 1-65535', async () => {
    await expect(
      kubectl(['patch', 'ovhnginx', name, '-n', ns, '--type=merge', '-p', JSON.stringify({ spec: { port: 70000 } })]),
    ).rejects.toThrow(/spec\.port.*65535/);
    expect((await ovhNginx())?.spec.port).toBe(8080);
  });

  it('recreates the Service when someone deletes it', async () => {
    const before = (await service())!.metadata!.uid;
    await kubectl(['delete', 'service', name, '-n', ns]);

    await expect.poll(async () => (await service())?.metadata?.uid, poll).toSatisfy((uid) => uid !== undefined && uid !== before);
    expect((await service())?.spec?.ports?.[0]?.port).toBe(8080);
  });

  it('leaves nothing behind once the OvhNginx is deleted', async () => {
    await kubectl(['delete', 'ovhnginx', name, '-n', ns]);

    // The garbage collector, not the operator, deletes what the OvhNginx owned. It learns
    // of a new CRD on its 30 s discovery resync, so this may take that long.
    await expect
      .poll(async () => Promise.all([deployment(), service(), configMap()]), { ...poll, timeout: 90_000 })
      .toEqual([undefined, undefined, undefined]);
  }, 100_000);
});
