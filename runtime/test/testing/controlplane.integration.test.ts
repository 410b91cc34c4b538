import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  AuthenticationV1Api,
  CoordinationV1Api,
  CoreV1Api,
  CustomObjectsApi,
  KubeConfig,
  type V1Lease,
} from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installCRDs, startControlPlane, type ControlPlane } from '../../src/testing/index.js';
import { firstWatchEvent, isAlive } from './helpers.js';

const crdDir = fileURLToPath(new URL('./fixtures/crds', import.meta.url));

describe('startControlPlane', () => {
  let cp: ControlPlane;
  let core: CoreV1Api;

  beforeAll(async () => {
    cp = await startControlPlane({ users: [{ name: 'jane', groups: ['developers'] }] });
    core = cp.kubeConfig.makeApiClient(CoreV1Api);
  });
  afterAll(() => cp?.stop());

  it('serves the admin from the returned KubeConfig and the same from the kubeconfig file', async () => {
    await core.createNamespace({ body: { metadata: { name: 'harness-ns' } } });
    const fromFile = new KubeConfig();
    fromFile.loadFromFile(cp.kubeconfigPath);
    const read = await fromFile.makeApiClient(CoreV1Api).readNamespace({ name: 'harness-ns' });
    expect(read.status?.phase).toBe('Active');
    expect(fromFile.getCurrentCluster()?.server).toBe(cp.server);
  });

  it('installs CRDs from a directory and serves their custom objects', async () => {
    const names = await installCRDs(cp.kubeConfig, crdDir);
    expect(names).toEqual(['gizmos.harness.opgen.dev']);

    const custom = cp.kubeConfig.makeApiClient(CustomObjectsApi);
    const gizmo = { group: 'harness.opgen.dev', version: 'v1', namespace: 'default', plural: 'gizmos' };
    await custom.createNamespacedCustomObject({
      ...gizmo,
      body: { apiVersion: 'harness.opgen.dev/v1', kind: 'Gizmo', metadata: { name: 'g1' }, spec: { size: 3 } },
    });
    const stored = (await custom.getNamespacedCustomObject({ ...gizmo, name: 'g1' })) as { spec: { size: number } };
    expect(stored.spec.size).toBe(3);
    // The CRD's schema is in force: the API server validates against it.
    await expect(
      custom.createNamespacedCustomObject({
        ...gizmo,
        body: { apiVersion: 'harness.opgen.dev/v1', kind: 'Gizmo', metadata: { name: 'g0' }, spec: { size: 0 } },
      }),
    ).rejects.toThrow(/spec.size/);
  });

  it('creates and updates a Lease', async () => {
    const leases = cp.kubeConfig.makeApiClient(CoordinationV1Api);
    const created = await leases.createNamespacedLease({
      namespace: 'default',
      body: { metadata: { name: 'harness-lease' }, spec: { holderIdentity: 'a', leaseDurationSeconds: 15 } },
    });
    const update: V1Lease = { ...created, spec: { ...created.spec, holderIdentity: 'b' } };
    const updated = await leases.replaceNamespacedLease({ name: 'harness-lease', namespace: 'default', body: update });
    expect(updated.spec?.holderIdentity).toBe('b');
    expect(updated.metadata?.resourceVersion).not.toBe(created.metadata?.resourceVersion);
    // The old resourceVersion is now a conflict, as leader election relies on.
    await expect(
      leases.replaceNamespacedLease({ name: 'harness-lease', namespace: 'default', body: created }),
    ).rejects.toMatchObject({ code: 409 });
  });

  it('gives other users only what RBAC grants them', async () => {
    const jane = cp.userKubeConfig('jane').kubeConfig.makeApiClient(CoreV1Api);
    await expect(jane.listNamespacedSecret({ namespace: 'default' })).rejects.toMatchObject({ code: 403 });
    expect(() => cp.userKubeConfig('nobody')).toThrow(/no user nobody/);
  });

  it('issues ServiceAccount kubeconfigs the API server authenticates as that account', async () => {
    await core.createNamespacedServiceAccount({ namespace: 'default', body: { metadata: { name: 'operator' } } });
    const account = await cp.serviceAccountKubeConfig('default', 'operator');
    const review = await account.kubeConfig.makeApiClient(AuthenticationV1Api).createSelfSubjectReview({ body: {} });
    expect(review.status?.userInfo?.username).toBe('system:serviceaccount:default:operator');
    expect(readFileSync(account.kubeconfigPath, 'utf8')).toContain(cp.server);
  });

  it('restarts the API server against the same etcd and keeps serving the same clients', async () => {
    const before = await core.createNamespacedConfigMap({
      namespace: 'default',
      body: { metadata: { name: 'before-restart' }, data: { a: '1' } },
    });
    // A later write: the new server's watch cache then starts past `before`.
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'later' } } });
    const oldPid = cp.processes().find((p) => p.name === 'kube-apiserver')?.pid;

    await cp.restartApiServer();

    const newPid = cp.processes().find((p) => p.name === 'kube-apiserver')?.pid;
    expect(newPid).toBeDefined();
    expect(newPid).not.toBe(oldPid);
    expect(isAlive(oldPid as number)).toBe(false);
    const kept = await core.readNamespacedConfigMap({ name: 'before-restart', namespace: 'default' });
    expect(kept.data).toEqual({ a: '1' });
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'after-restart' } } });
    // The new server's watch cache starts now: resuming a watch from before is 410 Gone.
    const event = await firstWatchEvent(
      cp.kubeConfig,
      '/api/v1/namespaces/default/configmaps',
      before.metadata?.resourceVersion as string,
    );
    expect(event).toMatchObject({ type: 'ERROR', object: { code: 410, reason: 'Expired' } });
  });

  it('stops every process it started and removes its temp dir', async () => {
    const pids = cp.processes().map((p) => p.pid);
    expect(pids).toHaveLength(2);
    expect(existsSync(cp.dir)).toBe(true);

    await cp.stop();

    expect(pids.filter(isAlive)).toEqual([]);
    expect(cp.processes()).toEqual([]);
    expect(existsSync(cp.dir)).toBe(false);
    await expect(cp.stop()).resolves.toBeUndefined();
  });
});
