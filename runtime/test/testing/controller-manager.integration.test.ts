import { AppsV1Api, CoreV1Api, type V1ConfigMap } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startControlPlane, type ControlPlane } from '../../src/testing/index.js';
import { eventually } from '../fixtures/eventually.js';
import { isAlive } from './helpers.js';

const gone = (error: unknown): boolean => (error as { code?: number }).code === 404;
// The garbage collector and the namespace controller act within seconds once their
// informers have synced; a loaded two-core machine can take several times longer.
const CONTROLLER_TIMEOUT_MS = 45_000;
const TEST_TIMEOUT_MS = 60_000;

describe('startControlPlane({ controllerManager: true })', () => {
  let cp: ControlPlane;
  let core: CoreV1Api;
  let apps: AppsV1Api;

  beforeAll(async () => {
    cp = await startControlPlane({ controllerManager: true });
    core = cp.kubeConfig.makeApiClient(CoreV1Api);
    apps = cp.kubeConfig.makeApiClient(AppsV1Api);
  });
  afterAll(() => cp?.stop());

  it('garbage-collects a dependent when its owner is deleted', async () => {
    const owner = await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'owner' } } });
    const dependent: V1ConfigMap = {
      metadata: {
        name: 'dependent',
        ownerReferences: [
          { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata?.uid as string, controller: true },
        ],
      },
    };
    await core.createNamespacedConfigMap({ namespace: 'default', body: dependent });

    await core.deleteNamespacedConfigMap({ name: 'owner', namespace: 'default' });

    await eventually(
      'the dependent ConfigMap to be garbage-collected',
      () =>
        core.readNamespacedConfigMap({ name: 'dependent', namespace: 'default' }).then(
          () => false,
          (error: unknown) => gone(error),
        ),
      CONTROLLER_TIMEOUT_MS,
    );
  }, TEST_TIMEOUT_MS);

  it('runs the workload controllers: a Deployment gets a ReplicaSet and Pods', async () => {
    await apps.createNamespacedDeployment({
      namespace: 'default',
      body: {
        metadata: { name: 'web' },
        spec: {
          replicas: 2,
          selector: { matchLabels: { app: 'web' } },
          template: {
            metadata: { labels: { app: 'web' } },
            spec: { containers: [{ name: 'web', image: 'nginx' }] },
          },
        },
      },
    });
    const pods = await eventually(
      'two Pods from the Deployment',
      async () => {
        const list = await core.listNamespacedPod({ namespace: 'default', labelSelector: 'app=web' });
        return list.items.length === 2 && list.items;
      },
      CONTROLLER_TIMEOUT_MS,
    );
    expect(pods[0]?.metadata?.ownerReferences?.[0]?.kind).toBe('ReplicaSet');
  }, TEST_TIMEOUT_MS);

  it('finalizes a deleted namespace (the namespace controller)', async () => {
    await core.createNamespace({ body: { metadata: { name: 'doomed' } } });
    await core.createNamespacedConfigMap({ namespace: 'doomed', body: { metadata: { name: 'inside' } } });

    await core.deleteNamespace({ name: 'doomed' });

    await eventually(
      'namespace doomed to disappear',
      () =>
        core.readNamespace({ name: 'doomed' }).then(
          () => false,
          (error: unknown) => gone(error),
        ),
      CONTROLLER_TIMEOUT_MS,
    );
  }, TEST_TIMEOUT_MS);

  it('stops the controller manager with the rest', async () => {
    const names = cp.processes().map((p) => p.name);
    expect(names.sort()).toEqual(['etcd', 'kube-apiserver', 'kube-controller-manager']);
    const pids = cp.processes().map((p) => p.pid);

    await cp.stop();

    expect(pids.filter(isAlive)).toEqual([]);
  });
});
