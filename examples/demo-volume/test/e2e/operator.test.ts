import { fileURLToPath } from 'node:url';
import { buildProject, kubectlFor, startControlPlane, startOperator, type ControlPlane, type Kubectl, type Operator } from '@opgen/runtime/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

// The operator as a user runs it: built, started as `node dist/main.js` against a real API
// server with kube-controller-manager (garbage collector, PersistentVolume binder), and
// driven only through the API server with kubectl. `npm run deploy`'s manifests are applied
// and the process runs as the manager's ServiceAccount, so the generated RBAC is what it gets.
// (The manager's Deployment is applied too; without a scheduler its Pod never runs.)
const project = fileURLToPath(new URL('../..', import.meta.url));
const poll = { timeout: 30_000, interval: 250 };

let controlPlane: ControlPlane | undefined;
let operator: Operator | undefined;
let kubectl: Kubectl;

beforeAll(async () => {
  [controlPlane] = await Promise.all([startControlPlane({ controllerManager: true }), buildProject(project)]);
  kubectl = kubectlFor(controlPlane, { cwd: project });
  await kubectl(['apply', '--server-side', '-k', 'config/default']);
  await kubectl(['wait', '--for=condition=Established', '--timeout=30s', 'crd/demovolumes.storage.civo.com']);
  const manager = await controlPlane.serviceAccountKubeConfig('demo-volume-system', 'demo-volume-controller-manager');
  operator = await startOperator({ dir: project, kubeconfigPath: manager.kubeconfigPath });
}, 180_000);

afterAll(async () => {
  await operator?.stop();
  await controlPlane?.stop();
});

beforeEach(({ onTestFailed }) => {
  onTestFailed(() => console.error(`operator output:\n${operator?.output()}`));
});

describe('DemoVolume operator', { timeout: 90_000 }, () => {
  it('creates the sample\'s PersistentVolumeClaim, owned by it, and copies spec.name to the status', async () => {
    await kubectl(['apply', '-f', 'config/samples/storage_v1_demovolume.yaml']);
    const volume = await kubectl.get('demovolume', 'demovolume-sample');

    await expect.poll(() => kubectl.get('pvc', 'demovolume-sample'), poll).toBeDefined();
    const claim = await kubectl.get('pvc', 'demovolume-sample');
    expect(claim.spec.accessModes).toEqual(['ReadWriteOnce']);
    expect(claim.spec.resources.requests).toEqual({ storage: '1Gi' });
    expect(claim.metadata.ownerReferences).toEqual([
      { apiVersion: 'storage.civo.com/v1', kind: 'DemoVolume', name: 'demovolume-sample', uid: volume.metadata.uid, controller: true, blockOwnerDeletion: true },
    ]);

    await expect.poll(async () => (await kubectl.get('demovolume', 'demovolume-sample')).status?.name, poll).toBe('demo-volume');
    await expect.poll(() => kubectl(['get', 'demovolume', 'demovolume-sample']), poll).toMatch(/^NAME +SIZE +PVC +AGE\ndemovolume-sample +1 +Pending +\S+\n$/);
    expect(operator!.logs()).toContainEqual(expect.objectContaining({ msg: 'created PersistentVolumeClaim', pvc: 'demovolume-sample', size: '1Gi' }));
    await expect.poll(() => kubectl(['get', 'events', '--field-selector', 'involvedObject.kind=DemoVolume,involvedObject.name=demovolume-sample', '-o', 'jsonpath={.items[*].message}']), poll)
      .toBe('Created PersistentVolumeClaim demovolume-sample of 1Gi');
  });

  it('turns Ready once the PersistentVolume binder binds its claim', async () => {
    await kubectl.apply({
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: 'demo-pv' },
      spec: {
        capacity: { storage: '1Gi' },
        accessModes: ['ReadWriteOnce'],
        hostPath: { path: '/tmp/demo-pv' },
        claimRef: { namespace: 'default', name: 'demovolume-sample' },
      },
    });

    // The binder looks at unbound claims every 15 s (--pvclaimbinder-sync-period).
    await kubectl(['wait', '--for=condition=Ready', '--timeout=60s', 'demovolume/demovolume-sample']);
    const ready = (await kubectl.get('demovolume', 'demovolume-sample')).status.conditions.find((c: { type: string }) => c.type === 'Ready');
    expect(ready).toMatchObject({ status: 'True', reason: 'Bound' });
    expect(await kubectl(['get', 'demovolume', 'demovolume-sample', '--no-headers'])).toMatch(/^demovolume-sample +1 +Bound /);
  });

  it('leaves a claim that exists already alone, with a log line and no error', async () => {
    const spec = { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '5Gi' } } };
    await kubectl.apply({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'taken', namespace: 'default' }, spec });
    await kubectl.apply({ apiVersion: 'storage.civo.com/v1', kind: 'DemoVolume', metadata: { name: 'taken', namespace: 'default' }, spec: { name: 'taken', size: 1 } });

    await expect.poll(async () => (await kubectl.get('demovolume', 'taken')).status?.name, poll).toBe('taken');
    const claim = await kubectl.get('pvc', 'taken');
    expect(claim.spec.resources.requests).toEqual({ storage: '5Gi' });
    expect(claim.metadata.ownerReferences).toBeUndefined();
    expect(operator!.logs()).toContainEqual(expect.objectContaining({ name: 'taken', msg: expect.stringContaining('leaving it alone') }));
    expect(operator!.logs().filter((line) => line.level === 'error')).toEqual([]);
  });

  it('follows a new spec.name and leaves its claim\'s size as it was', async () => {
    await kubectl(['patch', 'demovolume', 'demovolume-sample', '--type=merge', '-p', '{"spec":{"size":2,"name":"renamed"}}']);

    await expect.poll(async () => (await kubectl.get('demovolume', 'demovolume-sample')).status?.name, poll).toBe('renamed');
    expect((await kubectl.get('pvc', 'demovolume-sample')).spec.resources.requests).toEqual({ storage: '1Gi' });
  });

  it('is garbage-collected with its claim when deleted', async () => {
    await kubectl(['delete', 'demovolume', 'demovolume-sample', '--wait=false']);

    // The garbage collector starts watching a new CRD's kind at its next discovery, every 30 s.
    await expect.poll(() => kubectl.get('pvc', 'demovolume-sample'), { ...poll, timeout: 60_000 }).toBeUndefined();
  });

  it('stops cleanly on SIGTERM', async () => {
    expect(await operator!.stop()).toBe(0);
  });
});
