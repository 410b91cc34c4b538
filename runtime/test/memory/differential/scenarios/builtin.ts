import type { Area, Scenario } from '../scenario.js';
import { CONFIGMAPS, DEPLOYMENTS, MERGE, PODS, SECRETS, SERVICES, configMap, create, get, patch, pod, remove, update } from '../steps.js';

const REPLICASETS = '/apis/apps/v1/namespaces/{ns}/replicasets';
const STATEFULSETS = '/apis/apps/v1/namespaces/{ns}/statefulsets';
const DAEMONSETS = '/apis/apps/v1/namespaces/{ns}/daemonsets';
const JOBS = '/apis/batch/v1/namespaces/{ns}/jobs';
const CLAIMS = '/api/v1/namespaces/{ns}/persistentvolumeclaims';
const EVENTS = '/api/v1/namespaces/{ns}/events';
const LEASES = '/apis/coordination.k8s.io/v1/namespaces/{ns}/leases';

const LABELS = { app: 'a' };
const container = (name = 'c'): Record<string, unknown> => ({ name, image: 'busybox' });

/** A pod template labelled `labels` whose spec is `spec` over one container `c`. */
const template = (labels: Record<string, string> = LABELS, spec: Record<string, unknown> = {}): Record<string, unknown> => ({
  metadata: { labels },
  spec: { containers: [container()], ...spec },
});

/** An apps/v1 workload of `kind` named `name` whose spec is a selector on LABELS, a template, and `spec` merged in. */
function workload(kind: string, name: string, spec: Record<string, unknown> = {}): Record<string, unknown> {
  return { apiVersion: 'apps/v1', kind, metadata: { name }, spec: { selector: { matchLabels: LABELS }, template: template(), ...spec } };
}

const WORKLOADS: Array<[kind: string, path: string]> = [
  ['Deployment', DEPLOYMENTS],
  ['ReplicaSet', REPLICASETS],
  ['StatefulSet', STATEFULSETS],
  ['DaemonSet', DAEMONSETS],
];

/** The checks every apps/v1 workload shares (selector, template, containers), one scenario per kind. */
const workloadScenarios: Scenario[] = WORKLOADS.flatMap(([kind, path]) => [
  { name: `${kind}: a create without a selector is 422 Invalid`, steps: [create(path, workload(kind, 'w', { selector: undefined }))] },
  {
    name: `${kind}: a selector that does not match the template's labels is 422 Invalid`,
    steps: [create(path, workload(kind, 'w', { selector: { matchLabels: { app: 'other' } } }))],
  },
  {
    name: `${kind}: the selector cannot change on update`,
    steps: [
      { ...create(path, workload(kind, 'w')), quiet: true },
      patch(`${path}/w`, MERGE, { spec: { selector: { matchLabels: { app: 'a', tier: 'b' } }, template: { metadata: { labels: { tier: 'b' } } } } }),
    ],
  },
  {
    name: `${kind}: duplicate container names are 422 Invalid`,
    steps: [create(path, workload(kind, 'w', { template: template(LABELS, { containers: [container(), container()] }) }))],
  },
]);

const claim = (spec: Record<string, unknown> = {}): Record<string, unknown> => ({
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: { name: 'c' },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...spec },
});

const service = (spec: Record<string, unknown>): Record<string, unknown> => ({ apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec: { selector: LABELS, ...spec } });

const job = (spec: Record<string, unknown> = {}): Record<string, unknown> => ({
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: { name: 'j' },
  spec: { template: { spec: { containers: [container()], restartPolicy: 'Never' } }, ...spec },
});

const immutableSecret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, immutable: true, data: { k: 'dg==' } };

/**
 * Built-in kinds' own validation and decoding (kubernetes/pkg/apis/<group>/validation and the
 * typed decoder) in the cases an operator meets every day, and the request options every
 * write takes.
 */
export const builtinKinds: Area = {
  area: 'built-in kinds',
  owner: 'memserver',
  scenarios: [
    ...workloadScenarios,
    { name: 'Deployment: a container name that is no DNS label is 422 Invalid', steps: [create(DEPLOYMENTS, workload('Deployment', 'd', { template: template(LABELS, { containers: [container('Bad_Name')] }) }))] },
    { name: 'Deployment: a template without containers is 422 Invalid', steps: [create(DEPLOYMENTS, workload('Deployment', 'd', { template: template(LABELS, { containers: [] }) }))] },
    {
      name: 'Deployment: a template whose restartPolicy is not Always is 422 Invalid',
      steps: [create(DEPLOYMENTS, workload('Deployment', 'd', { template: template(LABELS, { restartPolicy: 'Never' }) }))],
    },
    { name: 'Deployment: an empty selector is 422 Invalid', steps: [create(DEPLOYMENTS, workload('Deployment', 'd', { selector: {} }))] },
    { name: 'Deployment: negative replicas are 422 Invalid', steps: [create(DEPLOYMENTS, workload('Deployment', 'd', { replicas: -1 }))] },
    { name: 'DaemonSet: a new one carries its template generation', steps: [create(DAEMONSETS, workload('DaemonSet', 'd'))] },
    {
      name: 'DaemonSet: a template change moves its template generation, a client cannot',
      steps: [
        { ...create(DAEMONSETS, workload('DaemonSet', 'd')), quiet: true },
        patch(`${DAEMONSETS}/d`, MERGE, { metadata: { annotations: { 'deprecated.daemonset.template.generation': '7' } } }),
        patch(`${DAEMONSETS}/d`, MERGE, { spec: { template: { metadata: { annotations: { a: 'b' } } } } }),
      ],
    },
    { name: 'Deployment: a valid one is stored with its defaults', steps: [create(DEPLOYMENTS, workload('Deployment', 'd', { replicas: 2 }))] },
    {
      name: 'StatefulSet: a claim template change is forbidden',
      steps: [
        create(STATEFULSETS, workload('StatefulSet', 's', { volumeClaimTemplates: [claim()] }), 's'),
        patch(`${STATEFULSETS}/s`, MERGE, { spec: { serviceName: 'other' } }),
      ],
    },
    {
      name: 'StatefulSet: replicas, template and minReadySeconds may change',
      steps: [
        create(STATEFULSETS, workload('StatefulSet', 's'), 's'),
        patch(`${STATEFULSETS}/s`, MERGE, { spec: { replicas: 3, minReadySeconds: 5, template: { metadata: { annotations: { a: 'b' } } } } }),
      ],
    },
    {
      name: 'PersistentVolumeClaim: an unbound claim cannot change its storage class',
      steps: [create(CLAIMS, claim({ storageClassName: 'a' })), patch(`${CLAIMS}/c`, MERGE, { spec: { storageClassName: 'b' } })],
    },
    {
      name: 'PersistentVolumeClaim: an unbound claim cannot grow its request',
      steps: [create(CLAIMS, claim()), patch(`${CLAIMS}/c`, MERGE, { spec: { resources: { requests: { storage: '2Gi' } } } })],
    },
    {
      name: 'Job: the pod template cannot change',
      steps: [create(JOBS, job()), patch(`${JOBS}/j`, MERGE, { spec: { template: { spec: { containers: [{ name: 'c', image: 'nginx' }] } } } })],
    },
    { name: 'Job: without manualSelector the selector and labels are generated', steps: [create(JOBS, job())] },
    { name: 'Job: parallelism may change', steps: [create(JOBS, job()), patch(`${JOBS}/j`, MERGE, { spec: { parallelism: 2 } })] },
    { name: 'Service: a ClusterIP Service without ports is 422 Invalid', steps: [create(SERVICES, service({}))] },
    { name: 'Service: a NodePort Service without ports is 422 Invalid', steps: [create(SERVICES, service({ type: 'NodePort' }))] },
    { name: 'Service: a headless Service without ports is accepted', steps: [create(SERVICES, service({ clusterIP: 'None' }))] },
    { name: 'Service: two ports need names', steps: [create(SERVICES, service({ ports: [{ port: 80 }, { port: 81 }] }))] },
    {
      name: 'Service: port names must be unique',
      steps: [create(SERVICES, service({ ports: [{ name: 'a', port: 80 }, { name: 'a', port: 81 }] }))],
    },
    { name: 'Service: a port number out of range is 422 Invalid', steps: [create(SERVICES, service({ ports: [{ port: 70000 }] }))] },
    {
      name: 'Service: clusterIP cannot change',
      steps: [create(SERVICES, service({ clusterIP: 'None' })), patch(`${SERVICES}/s`, MERGE, { spec: { clusterIP: '10.0.0.77' } })],
    },
    {
      name: 'ConfigMap: an immutable one refuses a data change',
      steps: [create(CONFIGMAPS, { ...configMap('c', { k: 'v' }), immutable: true }), patch(`${CONFIGMAPS}/c`, MERGE, { data: { k: 'w' } })],
    },
    {
      name: 'ConfigMap: an immutable one cannot become mutable',
      steps: [create(CONFIGMAPS, { ...configMap('c', { k: 'v' }), immutable: true }), patch(`${CONFIGMAPS}/c`, MERGE, { immutable: false })],
    },
    {
      name: 'ConfigMap: an immutable one still takes a label',
      steps: [create(CONFIGMAPS, { ...configMap('c', { k: 'v' }), immutable: true }), patch(`${CONFIGMAPS}/c`, MERGE, { metadata: { labels: { a: 'b' } } })],
    },
    { name: 'Secret: an immutable one refuses a data change', steps: [create(SECRETS, immutableSecret), patch(`${SECRETS}/s`, MERGE, { data: { k: 'dw==' } })] },
    {
      name: 'Secret: the type cannot change',
      steps: [create(SECRETS, { ...immutableSecret, immutable: undefined }), patch(`${SECRETS}/s`, MERGE, { type: 'example.com/other' })],
    },
    { name: 'Pod: duplicate container names are 422 Invalid', steps: [create(PODS, pod('p', {}, { containers: [container(), container()] }))] },
    { name: 'Pod: an unknown restartPolicy is 422 Invalid', steps: [create(PODS, pod('p', {}, { restartPolicy: 'Sometimes' }))] },
    { name: 'Pod: a number where a string belongs is 400 BadRequest', steps: [create(PODS, pod('p', {}, { containers: [{ name: 'c', image: 5 }] }))] },
    {
      name: 'Pod: a quantity is stored in canonical form',
      steps: [create(PODS, pod('p', {}, { containers: [{ name: 'c', image: 'busybox', resources: { requests: { cpu: 2.5, memory: '1024Mi' }, limits: { cpu: '2500m', memory: '1Gi' } } }] }))],
    },
    {
      name: 'Lease: a timestamp is stored in UTC',
      steps: [create(LEASES, { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'l' }, spec: { renewTime: '2024-01-01T10:00:00.000000+02:00' } })],
    },
    {
      name: 'Lease: a MicroTime without microseconds is 400 BadRequest',
      steps: [create(LEASES, { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'l' }, spec: { acquireTime: '2024-01-01T10:00:00+02:00' } })],
    },
    {
      name: 'Event: a timestamp is stored in UTC',
      steps: [
        create(EVENTS, {
          apiVersion: 'v1',
          kind: 'Event',
          metadata: { name: 'e' },
          involvedObject: { kind: 'Pod', name: 'p', namespace: '{ns}' },
          reason: 'Started',
          message: 'm',
          type: 'Normal',
          firstTimestamp: '2024-01-01T10:00:00+02:00',
          lastTimestamp: '2024-01-01T10:00:00.5-05:00',
        }),
      ],
    },
    { name: 'create with an unknown dryRun value is 422 and writes nothing', steps: [create(CONFIGMAPS, configMap('c'), undefined, { dryRun: 'Bogus' }), get(`${CONFIGMAPS}/c`)] },
    {
      name: 'update with an unknown dryRun value is 422 and writes nothing',
      steps: [create(CONFIGMAPS, configMap('c')), update(`${CONFIGMAPS}/c`, configMap('c', { k: 'v' }), undefined, { dryRun: 'Bogus' }), get(`${CONFIGMAPS}/c`)],
    },
    {
      name: 'patch with an unknown dryRun value is 422 and writes nothing',
      steps: [create(CONFIGMAPS, configMap('c')), patch(`${CONFIGMAPS}/c`, MERGE, { data: { k: 'v' } }, undefined, { dryRun: 'Bogus' }), get(`${CONFIGMAPS}/c`)],
    },
    {
      name: 'delete with an unknown dryRun value is 422 and deletes nothing',
      steps: [create(CONFIGMAPS, configMap('c')), remove(`${CONFIGMAPS}/c`, undefined, { dryRun: 'Bogus' }), get(`${CONFIGMAPS}/c`)],
    },
    {
      name: 'fieldValidation=Strict refuses an unknown field of a built-in kind',
      steps: [create(CONFIGMAPS, { ...configMap('c'), spec: { a: 1 } }, undefined, { fieldValidation: 'Strict' })],
    },
    {
      name: 'fieldValidation=Strict refuses an unknown nested field of a built-in kind',
      steps: [create(PODS, pod('p', {}, { containers: [{ name: 'c', image: 'busybox', imagePullPolice: 'Always' }] }), undefined, { fieldValidation: 'Strict' })],
    },
    {
      name: 'fieldValidation=Strict on a merge patch of a built-in kind quotes the patched object',
      steps: [create(CONFIGMAPS, configMap('c')), patch(`${CONFIGMAPS}/c`, MERGE, { spec: { a: 1 } }, undefined, { fieldValidation: 'Strict' })],
    },
    { name: 'a boolean where a string belongs is 400 BadRequest', steps: [create(CONFIGMAPS, { ...configMap('c'), data: { k: true } })] },
    { name: 'fieldValidation with an unknown value is 422 Invalid', steps: [create(CONFIGMAPS, configMap('c'), undefined, { fieldValidation: 'Sometimes' })] },
  ],
};
