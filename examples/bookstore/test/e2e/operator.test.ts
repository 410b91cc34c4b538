import { fileURLToPath } from 'node:url';
import type { kinds } from '@opgen/runtime';
import { buildProject, kubectlFor, startControlPlane, startOperator, type ControlPlane, type Kubectl, type Operator } from '@opgen/runtime/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BookStore } from '../../src/api/v1alpha1/bookstore_types.js';

// The bookstore tutorial against a real API server with kube-controller-manager: the
// operator runs as `node dist/main.js`, and this test only uses kubectl, as a user would.
// There is no kubelet, so Pods stay Pending, but the Deployment, StatefulSet and
// PersistentVolume binder controllers act on what the operator writes.
const project = fileURLToPath(new URL('../..', import.meta.url));
const ns = 'bookstore';
const name = 'shop';
const poll = { timeout: 30_000, interval: 250 };

let controlPlane: ControlPlane | undefined;
let operator: Operator | undefined;
let kubectl: Kubectl;

beforeAll(async () => {
  [controlPlane] = await Promise.all([startControlPlane({ controllerManager: true }), buildProject(project)]);
  kubectl = kubectlFor(controlPlane, { cwd: project });
  await kubectl(['apply', '--server-side', '-k', 'config/crd']);
  await kubectl(['wait', '--for=condition=Established', 'crd/bookstores.blog.example.com']);
  await kubectl(['create', 'namespace', ns]);
  // The cluster admin's part: a StorageClass that allows expansion, and a volume for the
  // PV binder to bind MongoDB's claim to. Nothing provisions or resizes real disks here.
  await kubectl.apply([
    { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'expandable' }, provisioner: 'example.com/none', allowVolumeExpansion: true, volumeBindingMode: 'Immediate' },
    { apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'disk-0' }, spec: { storageClassName: 'expandable', capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/tmp/disk-0' } } },
  ]);
  // The manager runs as its ServiceAccount, bound to the role `opgen manifests` wrote from
  // the RBAC markers (config/rbac, as `npm run deploy` installs it).
  await kubectl(['create', 'namespace', 'system']);
  await kubectl(['apply', '--server-side', '-k', 'config/rbac']);
  const manager = await controlPlane.serviceAccountKubeConfig('system', 'controller-manager');
  // Webhooks off: this e2e proves the controller on its own, including its refusal of a smaller
  // dbSize, the defence in depth behind the validating webhook (src/webhooks/ tests that one).
  operator = await startOperator({ dir: project, kubeconfigPath: manager.kubeconfigPath, env: { ENABLE_WEBHOOKS: 'false' } });
}, 180_000);

// A failing test shows what the operator logged.
beforeEach(({ onTestFailed }) => onTestFailed(() => console.log(operator?.output())));

afterAll(async () => {
  await operator?.stop();
  await controlPlane?.stop();
});

// v1alpha1 by name: it is the stored version, so the API server needs no conversion webhook
// (a plain `bookstore` is v1alpha2, the preferred version, which only the webhook converts to).
const resource = 'bookstores.v1alpha1.blog.example.com';
const bookStore = () => kubectl.get<BookStore>(resource, name, { namespace: ns });
const claim = () => kubectl.get<kinds.PersistentVolumeClaim>('pvc', `data-${name}-mongodb-0`, { namespace: ns });
const condition = async (type: string) => (await bookStore())?.status?.conditions?.find((c) => c.type === type);
const patch = (spec: object) => kubectl(['patch', resource, name, '-n', ns, '--type=merge', '-p', JSON.stringify({ spec })]);

/** What the user checks of the four objects. */
async function running() {
  const [deployment, service, statefulSet, dbService] = await Promise.all([
    kubectl.get<kinds.Deployment>('deployment', name, { namespace: ns }),
    kubectl.get<kinds.Service>('service', name, { namespace: ns }),
    kubectl.get<kinds.StatefulSet>('statefulset', `${name}-mongodb`, { namespace: ns }),
    kubectl.get<kinds.Service>('service', `${name}-mongodb`, { namespace: ns }),
  ]);
  const app = deployment?.spec?.template.spec?.containers[0];
  const db = statefulSet?.spec?.template.spec?.containers[0];
  return {
    app: { image: app?.image, pullPolicy: app?.imagePullPolicy, replicas: deployment?.spec?.replicas, containerPort: app?.ports?.[0]?.containerPort },
    appService: { type: service?.spec?.type, port: service?.spec?.ports?.[0]?.port, targetPort: service?.spec?.ports?.[0]?.targetPort },
    db: {
      image: db?.image,
      pullPolicy: db?.imagePullPolicy,
      replicas: statefulSet?.spec?.replicas,
      containerPort: db?.ports?.[0]?.containerPort,
      claimSize: statefulSet?.spec?.volumeClaimTemplates?.[0]?.spec?.resources?.requests?.storage,
    },
    dbService: { clusterIP: dbService?.spec?.clusterIP, port: dbService?.spec?.ports?.[0]?.port },
    owners: [deployment, service, statefulSet, dbService].map((o) => o?.metadata?.ownerReferences?.[0]?.name),
  };
}

describe('BookStore operator', () => {

  it('runs the app and its MongoDB for a new BookStore', async () => {
    await kubectl.apply({
      apiVersion: 'blog.example.com/v1alpha1',
      kind: 'BookStore',
      metadata: { name, namespace: ns },
      spec: {
        bookApp: { repository: 'akash125/pyapp', tag: '1.0', replicas: 2, port: 80, targetPort: 3000, serviceType: 'NodePort' },
        bookDB: { repository: 'mongo', tag: '7.0', imagePullPolicy: 'Always', dbSize: '1Gi', storageClassName: 'expandable' },
      },
    });

    await expect.poll(running, poll).toEqual({
      app: { image: 'akash125/pyapp:1.0', pullPolicy: 'IfNotPresent', replicas: 2, containerPort: 3000 },
      appService: { type: 'NodePort', port: 80, targetPort: 'http' },
      db: { image: 'mongo:7.0', pullPolicy: 'Always', replicas: 1, containerPort: 27017, claimSize: '1Gi' },
      dbService: { clusterIP: 'None', port: 27017 },
      owners: [name, name, name, name],
    });
    // kube-controller-manager's StatefulSet controller makes the claim, its PV binder binds it.
    await expect.poll(async () => [(await claim())?.status?.phase, (await claim())?.spec?.resources?.requests?.storage], poll).toEqual(['Bound', '1Gi']);
    await expect.poll(async () => [(await condition('Ready'))?.status, (await condition('DBSizeApplied'))?.status], poll).toEqual(['True', 'True']);
  });

  it('rolls the app and the database when their tags change, and scales them', async () => {
    const statefulSet = () => kubectl.get<kinds.StatefulSet>('statefulset', `${name}-mongodb`, { namespace: ns });
    const before = (await statefulSet())!.status?.updateRevision;
    expect(before).toBeDefined();
    await patch({ bookApp: { tag: '1.1', replicas: 3 }, bookDB: { tag: '7.0.1' } });

    await expect.poll(async () => (await running()).app, poll).toMatchObject({ image: 'akash125/pyapp:1.1', replicas: 3 });
    // The Deployment controller rolls out the new template as a new ReplicaSet.
    const images = async () => {
      const sets = await kubectl.list<kinds.ReplicaSet>('replicasets', { namespace: ns, selector: 'app.kubernetes.io/component=app' });
      return sets.map((rs) => rs.spec?.template?.spec?.containers[0]?.image).sort();
    };
    await expect.poll(images, poll).toEqual(['akash125/pyapp:1.0', 'akash125/pyapp:1.1']);
    // The StatefulSet controller computes a new revision for the new template.
    await expect.poll(async () => (await running()).db.image, poll).toBe('mongo:7.0.1');
    await expect
      .poll(async () => (await statefulSet())?.status?.updateRevision, poll)
      .toSatisfy((revision) => revision !== undefined && revision !== before);
  });

  it('expands the database volume when dbSize grows', async () => {
    await patch({ bookDB: { dbSize: '2Gi' } });

    await expect.poll(async () => (await claim())?.spec?.resources?.requests?.storage, poll).toBe('2Gi');
    await expect.poll(async () => (await condition('DBSizeApplied'))?.observedGeneration, poll).toBe((await bookStore())!.metadata!.generation);
    expect((await condition('DBSizeApplied'))?.status).toBe('True');
    // The claim template keeps its size: a StatefulSet's templates cannot change.
    expect((await running()).db.claimSize).toBe('1Gi');
  });

  it('refuses to shrink the database volume, and says so', async () => {
    // 1536Mi is above what the volume holds (1Gi), so the API server itself would take it.
    await patch({ bookDB: { dbSize: '1536Mi' } });

    await expect.poll(async () => (await condition('DBSizeApplied'))?.reason, poll).toBe('ShrinkRefused');
    expect(await condition('DBSizeApplied')).toMatchObject({ status: 'False', observedGeneration: (await bookStore())!.metadata!.generation });
    const warnings = async () => {
      const events = await kubectl.list<kinds.Event>('events.events.k8s.io', { namespace: ns });
      return events.filter((e) => e.reason === 'ShrinkRefused' && e.regarding?.name === name).map((e) => e.type);
    };
    await expect.poll(warnings, poll).toContain('Warning');
    expect((await claim())?.spec?.resources?.requests?.storage).toBe('2Gi');
  });

  it('keeps the StorageClass it started with', async () => {
    await expect(patch({ bookDB: { storageClassName: 'standard' } })).rejects.toThrow('storageClassName cannot be changed');
  });
});
