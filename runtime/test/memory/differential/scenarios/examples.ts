import type { Area, Step } from '../scenario.js';
import { MERGE, PODS, SERVICES, apply, create, get, ownerRef, patch, remove, settleGone } from '../steps.js';

/**
 * The requests the seed examples' reconciles make (examples/*: their CRDs as installed,
 * their samples, and the children each controller creates or applies), in the order a
 * reconcile makes them. Field managers are the controllers' own.
 */

const labels = { 'app.kubernetes.io/managed-by': 'kustomize' };
const cr = (apiVersion: string, kind: string, name: string, spec: Record<string, unknown>): Record<string, unknown> => ({ apiVersion, kind, metadata: { name, labels }, spec });

const DEMOVOLUMES = '/apis/storage.civo.com/v1/namespaces/{ns}/demovolumes';
const PODSETS = '/apis/app.example.com/v1alpha1/namespaces/{ns}/podsets';
const NGINXES = '/apis/tutorials.ovhcloud.com/v1/namespaces/{ns}/ovhnginxes';
const BOOKSTORES = '/apis/blog.example.com/v1alpha1/namespaces/{ns}/bookstores';
const ECHOS = '/apis/echo.mmontes.io/v1alpha1/namespaces/{ns}/echos';
const SCHEDULED = '/apis/echo.mmontes.io/v1alpha1/namespaces/{ns}/scheduledechos';
const STATICSITES = '/apis/web.example.com/v1alpha1/namespaces/{ns}/staticsites';
const CRONJOBS_CR = '/apis/batch.tutorial.kubebuilder.io/v1/namespaces/{ns}/cronjobs';
const PVCS = '/api/v1/namespaces/{ns}/persistentvolumeclaims';
const JOBS = '/apis/batch/v1/namespaces/{ns}/jobs';
const CRONJOBS = '/apis/batch/v1/namespaces/{ns}/cronjobs';
const DEPLOYMENTS = '/apis/apps/v1/namespaces/{ns}/deployments';
const STATEFULSETS = '/apis/apps/v1/namespaces/{ns}/statefulsets';
const CONFIGMAPS = '/api/v1/namespaces/{ns}/configmaps';

const demoVolume = cr('storage.civo.com/v1', 'DemoVolume', 'demovolume-sample', { name: 'demo-volume', size: 1 });
const podSet = cr('app.example.com/v1alpha1', 'PodSet', 'podset-sample', { replicas: 3 });
const nginx = cr('tutorials.ovhcloud.com/v1', 'OvhNginx', 'ovhnginx-sample', { replicaCount: 1, port: 80 });
const bookStore = cr('blog.example.com/v1alpha1', 'BookStore', 'bookstore-sample', {
  bookApp: { repository: 'akash125/pyapp', tag: 'latest', imagePullPolicy: 'Always', replicas: 1, port: 80, targetPort: 3000, serviceType: 'ClusterIP' },
  bookDB: { repository: 'mongo', tag: 'latest', imagePullPolicy: 'Always', replicas: 1, port: 27017, dbSize: '2Gi' },
});
const echo = cr('echo.mmontes.io/v1alpha1', 'Echo', 'echo-sample', { message: 'Hello, world' });
const scheduled = cr('echo.mmontes.io/v1alpha1', 'ScheduledEcho', 'scheduledecho-sample', { message: 'Hello again', schedule: '*/5 * * * *' });

/** The controller reference every child carries. */
const controllerRef = (step: string, apiVersion: string, kind: string, name: string): Record<string, unknown>[] => [
  ownerRef(step, apiVersion, kind, name, { controller: true, blockOwnerDeletion: true }),
];
const nginxLabels = { 'app.kubernetes.io/name': 'nginx', 'app.kubernetes.io/instance': 'ovhnginx-sample' };
const nginxChildren = (port: number, replicas: number): Step[] => {
  const metadata = { name: 'ovhnginx-sample', labels: nginxLabels, ownerReferences: controllerRef('owner', 'tutorials.ovhcloud.com/v1', 'OvhNginx', 'ovhnginx-sample') };
  return [
    apply(`${CONFIGMAPS}/ovhnginx-sample`, 'ovhnginx', { apiVersion: 'v1', kind: 'ConfigMap', metadata, data: { 'default.conf': `server {\n  listen ${port};\n}\n` } }, { force: true }),
    apply(
      `${DEPLOYMENTS}/ovhnginx-sample`,
      'ovhnginx',
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata,
        spec: {
          replicas,
          selector: { matchLabels: nginxLabels },
          template: {
            metadata: { labels: nginxLabels },
            spec: {
              containers: [
                {
                  name: 'nginx',
                  image: 'nginx:1.27',
                  ports: [{ name: 'http', containerPort: port, protocol: 'TCP' }],
                  volumeMounts: [{ name: 'config', mountPath: '/etc/nginx/conf.d', readOnly: true }],
                },
              ],
              volumes: [{ name: 'config', configMap: { name: 'ovhnginx-sample' } }],
            },
          },
        },
      },
      { force: true },
    ),
    apply(
      `${SERVICES}/ovhnginx-sample`,
      'ovhnginx',
      { apiVersion: 'v1', kind: 'Service', metadata, spec: { type: 'LoadBalancer', selector: nginxLabels, ports: [{ name: 'http', port, targetPort: 'http', protocol: 'TCP' }] } },
      { force: true },
    ),
  ];
};
const statusApply = (path: string, manager: string, apiVersion: string, kind: string, name: string, status: Record<string, unknown>): Step =>
  apply(`${path}/${name}/status`, manager, { apiVersion, kind, metadata: { name }, status }, { force: true });
const ready = (message: string): Record<string, unknown> => ({
  conditions: [{ type: 'Ready', status: 'True', reason: 'Applied', message, lastTransitionTime: '2024-01-01T00:00:00Z' }],
});
const echoJob = (message: string): Record<string, unknown> => ({
  template: { spec: { restartPolicy: 'Never', containers: [{ name: 'echo', image: 'busybox', command: ['echo', message] }] } },
});

export const examples: Area = {
  area: 'seed examples',
  owner: 'memserver',
  scenarios: [
    {
      name: 'DemoVolume: the sample, its PVC owned by it, status.name through /status',
      steps: [
        create(DEMOVOLUMES, demoVolume, 'owner'),
        get(`${PVCS}/demovolume-sample`),
        create(PVCS, {
          apiVersion: 'v1',
          kind: 'PersistentVolumeClaim',
          metadata: { name: 'demovolume-sample', ownerReferences: controllerRef('owner', 'storage.civo.com/v1', 'DemoVolume', 'demovolume-sample') },
          spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
        }),
        statusApply(DEMOVOLUMES, 'demovolume', 'storage.civo.com/v1', 'DemoVolume', 'demovolume-sample', { name: 'demo-volume' }),
      ],
    },
    {
      name: 'DemoVolume: a name too long and a size below the minimum are refused',
      steps: [create(DEMOVOLUMES, cr('storage.civo.com/v1', 'DemoVolume', 'bad', { name: 'x'.repeat(64), size: 0 }))],
    },
    {
      name: 'DemoVolume: deleting it collects its PVC (pvc-protection finalizer included)',
      steps: [
        create(DEMOVOLUMES, demoVolume, 'owner'),
        create(PVCS, {
          apiVersion: 'v1',
          kind: 'PersistentVolumeClaim',
          metadata: { name: 'demovolume-sample', ownerReferences: controllerRef('owner', 'storage.civo.com/v1', 'DemoVolume', 'demovolume-sample') },
          spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
        }),
        remove(`${DEMOVOLUMES}/demovolume-sample`),
        settleGone(`${PVCS}/demovolume-sample`),
      ],
    },
    {
      name: 'PodSet: list Pods by label, create them with generateName, status through apply',
      steps: [
        create(PODSETS, podSet, 'owner'),
        get(PODS, { labelSelector: 'app=podset-sample' }),
        create(PODS, {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { generateName: 'podset-sample-pod-', labels: { app: 'podset-sample' }, ownerReferences: controllerRef('owner', 'app.example.com/v1alpha1', 'PodSet', 'podset-sample') },
          spec: { containers: [{ name: 'busybox', image: 'busybox', command: ['sleep', '3600'] }] },
        }),
        statusApply(PODSETS, 'podset', 'app.example.com/v1alpha1', 'PodSet', 'podset-sample', { podNames: [], readyReplicas: 0 }),
      ],
    },
    {
      name: 'PodSet: a Pod with a fixed name, deleted by the controller when scaling down',
      steps: [
        create(PODSETS, podSet, 'owner'),
        create(PODS, {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: 'podset-sample-pod-a', labels: { app: 'podset-sample' }, ownerReferences: controllerRef('owner', 'app.example.com/v1alpha1', 'PodSet', 'podset-sample') },
          spec: { containers: [{ name: 'busybox', image: 'busybox', command: ['sleep', '3600'] }] },
        }),
        patch(`${PODSETS}/podset-sample`, MERGE, { spec: { replicas: 0 } }),
        remove(`${PODS}/podset-sample-pod-a`),
        get(PODS, { labelSelector: 'app=podset-sample' }),
      ],
    },
    {
      name: 'PodSet: the scale subresource',
      steps: [create(PODSETS, podSet), get(`${PODSETS}/podset-sample/scale`), patch(`${PODSETS}/podset-sample/scale`, MERGE, { spec: { replicas: 2 } })],
    },
    { name: 'PodSet: negative replicas are refused', steps: [create(PODSETS, cr('app.example.com/v1alpha1', 'PodSet', 'bad', { replicas: -1 }))] },
    {
      name: 'OvhNginx: the controller applies a ConfigMap, a Deployment and a LoadBalancer Service',
      steps: [create(NGINXES, nginx, 'owner'), ...nginxChildren(80, 1), statusApply(NGINXES, 'ovhnginx/conditions/Ready', 'tutorials.ovhcloud.com/v1', 'OvhNginx', 'ovhnginx-sample', ready('nginx runs 1 replicas on port 80'))],
    },
    {
      name: 'OvhNginx: a spec change is applied to the children',
      steps: [create(NGINXES, nginx, 'owner'), ...nginxChildren(80, 1), patch(`${NGINXES}/ovhnginx-sample`, MERGE, { spec: { port: 8080, replicaCount: 2 } }), ...nginxChildren(8080, 2)],
    },
    { name: 'OvhNginx: a port out of range is refused', steps: [create(NGINXES, cr('tutorials.ovhcloud.com/v1', 'OvhNginx', 'bad', { replicaCount: 0, port: 70000 }))] },
    {
      name: 'OvhNginx: deleting it collects the Deployment, Service and ConfigMap',
      steps: [create(NGINXES, nginx, 'owner'), ...nginxChildren(80, 1), remove(`${NGINXES}/ovhnginx-sample`), settleGone(`${DEPLOYMENTS}/ovhnginx-sample`), settleGone(`${SERVICES}/ovhnginx-sample`), settleGone(`${CONFIGMAPS}/ovhnginx-sample`)],
    },
    {
      name: 'BookStore: the sample, its app Deployment and the MongoDB StatefulSet with a claim template',
      steps: [
        create(BOOKSTORES, bookStore, 'owner'),
        get(`${STATEFULSETS}/bookstore-sample-mongodb`),
        apply(
          `${STATEFULSETS}/bookstore-sample-mongodb`,
          'bookstore',
          {
            apiVersion: 'apps/v1',
            kind: 'StatefulSet',
            metadata: { name: 'bookstore-sample-mongodb', ownerReferences: controllerRef('owner', 'blog.example.com/v1alpha1', 'BookStore', 'bookstore-sample') },
            spec: {
              serviceName: 'bookstore-sample-mongodb',
              replicas: 1,
              selector: { matchLabels: { app: 'mongodb' } },
              template: { metadata: { labels: { app: 'mongodb' } }, spec: { containers: [{ name: 'mongodb', image: 'mongo:latest', imagePullPolicy: 'Always', ports: [{ containerPort: 27017 }], volumeMounts: [{ name: 'data', mountPath: '/data/db' }] }] } },
              volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '2Gi' } } } }],
            },
          },
          { force: true },
        ),
        apply(
          `${SERVICES}/bookstore-sample`,
          'bookstore',
          { apiVersion: 'v1', kind: 'Service', metadata: { name: 'bookstore-sample', ownerReferences: controllerRef('owner', 'blog.example.com/v1alpha1', 'BookStore', 'bookstore-sample') }, spec: { type: 'ClusterIP', selector: { app: 'bookstore' }, ports: [{ port: 80, targetPort: 3000 }] } },
          { force: true },
        ),
      ],
    },
    {
      name: 'BookStore: a StatefulSet claim template cannot be changed',
      steps: [
        create(STATEFULSETS, {
          apiVersion: 'apps/v1',
          kind: 'StatefulSet',
          metadata: { name: 'db' },
          spec: {
            serviceName: 'db',
            selector: { matchLabels: { app: 'db' } },
            template: { metadata: { labels: { app: 'db' } }, spec: { containers: [{ name: 'db', image: 'mongo' }] } },
            volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '2Gi' } } } }],
          },
        }),
        patch(`${STATEFULSETS}/db`, MERGE, { spec: { volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '4Gi' } } } }] } }),
      ],
    },
    {
      name: 'BookStore: expanding an unbound PVC is refused',
      steps: [
        create(PVCS, { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data-db-0', labels: { 'app.kubernetes.io/part-of': 'bookstore' } }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '2Gi' } } } }),
        get(PVCS, { labelSelector: 'app.kubernetes.io/part-of=bookstore' }),
        patch(`${PVCS}/data-db-0`, MERGE, { spec: { resources: { requests: { storage: '4Gi' } } } }),
      ],
    },
    {
      name: 'BookStore: enums of imagePullPolicy and serviceType are checked',
      steps: [create(BOOKSTORES, cr('blog.example.com/v1alpha1', 'BookStore', 'bad', { bookApp: { imagePullPolicy: 'Sometimes', serviceType: 'Magic' }, bookDB: { dbSize: '1Gi' } }))],
    },
    {
      name: 'BookStore: dbSize takes a quantity and refuses garbage',
      steps: [create(BOOKSTORES, cr('blog.example.com/v1alpha1', 'BookStore', 'bad', { bookApp: {}, bookDB: { dbSize: 'lots' } }))],
    },
    {
      name: 'BookStore: the v1alpha2 version is served too',
      steps: [create(BOOKSTORES, bookStore), get('/apis/blog.example.com/v1alpha2/namespaces/{ns}/bookstores/bookstore-sample')],
    },
    {
      name: "BookStore: written in v1alpha2, read in v1alpha1 with that version's schema",
      steps: [
        create(
          '/apis/blog.example.com/v1alpha2/namespaces/{ns}/bookstores',
          cr('blog.example.com/v1alpha2', 'BookStore', 'bookstore-v2', { bookApp: { image: { repository: 'akash125/pyapp' } }, bookDB: { image: { repository: 'mongo' }, dbSize: '1Gi' } }),
        ),
        get(`${BOOKSTORES}/bookstore-v2`),
        get(BOOKSTORES),
      ],
    },
    {
      name: 'Echo: the sample and its Job, created once',
      steps: [
        create(ECHOS, echo, 'owner'),
        get(`${JOBS}/echo-sample`),
        create(JOBS, { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'echo-sample', ownerReferences: controllerRef('owner', 'echo.mmontes.io/v1alpha1', 'Echo', 'echo-sample') }, spec: echoJob('Hello, world') }),
        create(JOBS, { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'echo-sample' }, spec: echoJob('Hello, world') }),
      ],
    },
    { name: 'Echo: the message is immutable (CEL)', steps: [create(ECHOS, echo), patch(`${ECHOS}/echo-sample`, MERGE, { spec: { message: 'changed' } })] },
    { name: 'Echo: a name longer than 63 characters is refused (CEL on metadata.name)', steps: [create(ECHOS, cr('echo.mmontes.io/v1alpha1', 'Echo', 'e'.repeat(64), { message: 'hi' }))] },
    { name: 'Echo: the message is required', steps: [create(ECHOS, cr('echo.mmontes.io/v1alpha1', 'Echo', 'e', {}))] },
    {
      name: 'ScheduledEcho: the sample and its CronJob, applied',
      steps: [
        create(SCHEDULED, scheduled, 'owner'),
        apply(
          `${CRONJOBS}/scheduledecho-sample`,
          'scheduledecho',
          {
            apiVersion: 'batch/v1',
            kind: 'CronJob',
            metadata: { name: 'scheduledecho-sample', ownerReferences: controllerRef('owner', 'echo.mmontes.io/v1alpha1', 'ScheduledEcho', 'scheduledecho-sample') },
            spec: { schedule: '*/5 * * * *', jobTemplate: { spec: echoJob('Hello again') } },
          },
          { force: true },
        ),
      ],
    },
    { name: 'ScheduledEcho: a schedule that is not cron is refused (CEL matches)', steps: [create(SCHEDULED, cr('echo.mmontes.io/v1alpha1', 'ScheduledEcho', 's', { message: 'hi', schedule: 'every day' }))] },
    { name: 'ScheduledEcho: @every and macros are accepted', steps: [create(SCHEDULED, cr('echo.mmontes.io/v1alpha1', 'ScheduledEcho', 's', { message: 'hi', schedule: '@every 1h30m' })), create(SCHEDULED, cr('echo.mmontes.io/v1alpha1', 'ScheduledEcho', 't', { message: 'hi', schedule: '@hourly' }))] },
    { name: 'ScheduledEcho: a name longer than 52 characters is refused', steps: [create(SCHEDULED, cr('echo.mmontes.io/v1alpha1', 'ScheduledEcho', 's'.repeat(53), { message: 'hi', schedule: '@hourly' }))] },
    {
      name: 'CronJob (kubebuilder tutorial): the sample with its job template',
      steps: [
        create(CRONJOBS_CR, {
          apiVersion: 'batch.tutorial.kubebuilder.io/v1',
          kind: 'CronJob',
          metadata: { name: 'cronjob-sample' },
          spec: {
            schedule: '*/1 * * * *',
            startingDeadlineSeconds: 60,
            concurrencyPolicy: 'Allow',
            jobTemplate: { spec: { template: { spec: { containers: [{ name: 'hello', image: 'busybox', args: ['/bin/sh', '-c', 'date'] }], restartPolicy: 'OnFailure' } } } },
          },
        }),
      ],
    },
    { name: 'StaticSite: the sample', steps: [create(STATICSITES, cr('web.example.com/v1alpha1', 'StaticSite', 'staticsite-sample', { replicaCount: 1, image: { repository: 'nginx', tag: '1.27' }, content: '<h1>Hello</h1>', service: { enabled: true, port: 80 } }))] },
    {
      name: 'an event recorded for a custom object (events.k8s.io/v1)',
      steps: [
        create(PODSETS, podSet, 'owner'),
        create('/apis/events.k8s.io/v1/namespaces/{ns}/events', {
          apiVersion: 'events.k8s.io/v1',
          kind: 'Event',
          metadata: { name: 'podset-sample.1' },
          eventTime: '2024-01-01T00:00:00.000000Z',
          reportingController: 'podset',
          reportingInstance: 'podset-1',
          action: 'Create',
          reason: 'SuccessfulCreate',
          type: 'Normal',
          note: 'Created pod: podset-sample-pod-a',
          regarding: { apiVersion: 'app.example.com/v1alpha1', kind: 'PodSet', name: 'podset-sample', namespace: '{ns}', uid: { $ref: 'owner', path: 'metadata.uid' } },
        }),
      ],
    },
    {
      name: 'a leader election Lease: created, renewed, and a stale takeover is 409 Conflict',
      steps: [
        create('/apis/coordination.k8s.io/v1/namespaces/{ns}/leases', { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'echo-leader' }, spec: { holderIdentity: 'pod-a', leaseDurationSeconds: 15, acquireTime: '2024-01-01T00:00:00.000000Z', renewTime: '2024-01-01T00:00:00.000000Z', leaseTransitions: 0 } }, 'lease'),
        { method: 'PUT', path: '/apis/coordination.k8s.io/v1/namespaces/{ns}/leases/echo-leader', body: { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'echo-leader', resourceVersion: { $ref: 'lease', path: 'metadata.resourceVersion' } }, spec: { holderIdentity: 'pod-a', leaseDurationSeconds: 15, acquireTime: '2024-01-01T00:00:00.000000Z', renewTime: '2024-01-01T00:00:05.000000Z', leaseTransitions: 0 } } },
        { method: 'PUT', path: '/apis/coordination.k8s.io/v1/namespaces/{ns}/leases/echo-leader', body: { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'echo-leader', resourceVersion: { $ref: 'lease', path: 'metadata.resourceVersion' } }, spec: { holderIdentity: 'pod-b', leaseDurationSeconds: 15, leaseTransitions: 1 } } },
      ],
    },
  ],
};
