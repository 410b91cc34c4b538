import { WIDGETS } from '../crds.js';
import type { Area } from '../scenario.js';
import { CONFIGMAPS, DEPLOYMENTS, JSON_PATCH, MERGE, SERVICES, STRATEGIC, configMap, create, get, patch, widget } from '../steps.js';

const W = `${WIDGETS}/w`;
const A = `${CONFIGMAPS}/a`;
const D = `${DEPLOYMENTS}/d`;
const deployment = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'd', labels: { app: 'd' } },
  spec: {
    replicas: 1,
    selector: { matchLabels: { app: 'd' } },
    template: {
      metadata: { labels: { app: 'd' } },
      spec: {
        containers: [
          { name: 'web', image: 'nginx:1.25', ports: [{ containerPort: 80, name: 'http' }], env: [{ name: 'A', value: '1' }] },
          { name: 'sidecar', image: 'busybox', command: ['sleep', '3600'] },
        ],
      },
    },
  },
};
const service = {
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name: 's' },
  spec: { selector: { app: 's' }, ports: [{ name: 'http', port: 80, targetPort: 8080 }] },
};

/** JSON merge patch, JSON patch, strategic merge patch for built-in kinds, and the patch types each kind refuses. */
export const patches: Area = {
  area: 'patches',
  owner: 'memserver',
  scenarios: [
    { name: 'merge patch adds, replaces and removes (null) keys', steps: [create(CONFIGMAPS, configMap('a', { x: '1', y: '2' })), patch(A, MERGE, { data: { x: '9', y: null, z: '3' } })] },
    { name: 'merge patch replaces a list whole', steps: [create(WIDGETS, widget('w', { tags: ['a', 'b'] })), patch(W, MERGE, { spec: { tags: ['c'] } })] },
    { name: 'merge patch with null removes a nested object', steps: [create(WIDGETS, widget('w', { settings: { mode: 'x' } })), patch(W, MERGE, { spec: { settings: null } })] },
    { name: 'merge patch of a missing object is 404 NotFound', steps: [patch(`${CONFIGMAPS}/missing`, MERGE, { data: { k: 'v' } })] },
    { name: 'merge patch that is not an object is 400 BadRequest', steps: [create(CONFIGMAPS, configMap('a')), patch(A, MERGE, ['not', 'an', 'object'])] },
    { name: 'merge patch that changes the name is refused', steps: [create(CONFIGMAPS, configMap('a')), patch(A, MERGE, { metadata: { name: 'b' } })] },
    { name: 'merge patch that changes the uid is refused', steps: [create(CONFIGMAPS, configMap('a')), patch(A, MERGE, { metadata: { uid: '00000000-0000-0000-0000-000000000004' } })] },
    { name: 'merge patch leading to an invalid Widget is 422 Invalid', steps: [create(WIDGETS, widget('w')), patch(W, MERGE, { spec: { replicas: -1 } })] },
    { name: 'merge patch of labels with a removal', steps: [create(CONFIGMAPS, configMap('a', {}, { labels: { a: '1', b: '2' } })), patch(A, MERGE, { metadata: { labels: { a: null, c: '3' } } })] },
    {
      name: 'JSON patch add, replace, remove, copy and move',
      steps: [
        create(CONFIGMAPS, configMap('a', { x: '1', y: '2' })),
        patch(A, JSON_PATCH, [
          { op: 'add', path: '/data/z', value: '3' },
          { op: 'replace', path: '/data/x', value: '9' },
          { op: 'remove', path: '/data/y' },
          { op: 'copy', from: '/data/z', path: '/data/c' },
          { op: 'move', from: '/data/c', path: '/data/m' },
        ]),
      ],
    },
    { name: 'JSON patch appends to a list with -', steps: [create(WIDGETS, widget('w', { args: ['a'] })), patch(W, JSON_PATCH, [{ op: 'add', path: '/spec/args/-', value: 'b' }])] },
    { name: 'JSON patch inserts into a list at an index', steps: [create(WIDGETS, widget('w', { args: ['a', 'c'] })), patch(W, JSON_PATCH, [{ op: 'add', path: '/spec/args/1', value: 'b' }])] },
    { name: 'JSON patch with escaped keys (~1 for /)', steps: [create(CONFIGMAPS, configMap('a')), patch(A, JSON_PATCH, [{ op: 'add', path: '/metadata/labels', value: { 'example.com/x': 'y' } }, { op: 'replace', path: '/metadata/labels/example.com~1x', value: 'z' }])] },
    { name: 'JSON patch remove of a missing path is refused', steps: [create(CONFIGMAPS, configMap('a')), patch(A, JSON_PATCH, [{ op: 'remove', path: '/data/nothing' }])] },
    { name: 'JSON patch replace of a missing path is refused', steps: [create(CONFIGMAPS, configMap('a')), patch(A, JSON_PATCH, [{ op: 'replace', path: '/data/nothing', value: 'x' }])] },
    { name: 'JSON patch failing test operation is refused', steps: [create(CONFIGMAPS, configMap('a', { k: '1' })), patch(A, JSON_PATCH, [{ op: 'test', path: '/data/k', value: '2' }, { op: 'replace', path: '/data/k', value: '3' }])] },
    { name: 'JSON patch with an unknown operation is refused', steps: [create(CONFIGMAPS, configMap('a')), patch(A, JSON_PATCH, [{ op: 'frobnicate', path: '/data/k' }])] },
    { name: 'JSON patch that is not a list is refused', steps: [create(CONFIGMAPS, configMap('a')), patch(A, JSON_PATCH, { op: 'add', path: '/data/k', value: 'v' })] },
    { name: 'JSON patch into a missing parent is refused', steps: [create(WIDGETS, widget('w')), patch(W, JSON_PATCH, [{ op: 'add', path: '/spec/settings/mode', value: 'x' }])] },
    { name: 'JSON patch on /status of a Widget', steps: [create(WIDGETS, widget('w')), patch(`${W}/status`, JSON_PATCH, [{ op: 'add', path: '/status', value: { phase: 'Ready' } }])] },
    { name: 'strategic merge patch of a custom resource is 415 UnsupportedMediaType', steps: [create(WIDGETS, widget('w')), patch(W, STRATEGIC, { spec: { replicas: 2 } })] },
    { name: 'an unknown patch content type is 415 UnsupportedMediaType', steps: [create(CONFIGMAPS, configMap('a')), patch(A, 'application/x-unknown-patch', { data: { k: 'v' } })] },
    { name: 'strategic merge patch of a ConfigMap merges data', steps: [create(CONFIGMAPS, configMap('a', { x: '1' })), patch(A, STRATEGIC, { data: { y: '2' } })] },
    {
      name: 'strategic merge patch merges Deployment containers by name',
      steps: [create(DEPLOYMENTS, deployment), patch(D, STRATEGIC, { spec: { template: { spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] } } } }), get(D)],
    },
    {
      name: 'strategic merge patch adds a container and merges env by name',
      steps: [
        create(DEPLOYMENTS, deployment),
        patch(D, STRATEGIC, {
          spec: { template: { spec: { containers: [{ name: 'web', env: [{ name: 'B', value: '2' }] }, { name: 'third', image: 'busybox' }] } } },
        }),
      ],
    },
    {
      name: 'strategic merge patch $patch: delete removes a container',
      steps: [create(DEPLOYMENTS, deployment), patch(D, STRATEGIC, { spec: { template: { spec: { containers: [{ name: 'sidecar', $patch: 'delete' }] } } } })],
    },
    {
      name: 'strategic merge patch $patch: replace replaces the containers list',
      steps: [
        create(DEPLOYMENTS, deployment),
        patch(D, STRATEGIC, { spec: { template: { spec: { containers: [{ name: 'only', image: 'busybox' }, { $patch: 'replace' }] } } } }),
      ],
    },
    {
      name: 'strategic merge patch $retainKeys and $setElementOrder on containers',
      steps: [
        create(DEPLOYMENTS, deployment),
        patch(D, STRATEGIC, {
          spec: { template: { spec: { $setElementOrder: { containers: [{ name: 'sidecar' }, { name: 'web' }] }, containers: [{ name: 'web', image: 'nginx:1.26' }] } } },
        }),
      ],
    },
    {
      name: 'strategic merge patch merges Service ports by port',
      steps: [create(SERVICES, service), patch(`${SERVICES}/s`, STRATEGIC, { spec: { ports: [{ name: 'https', port: 443, targetPort: 8443 }] } })],
    },
    {
      name: 'strategic merge patch replaces a list without a merge key (container args)',
      steps: [create(DEPLOYMENTS, deployment), patch(D, STRATEGIC, { spec: { template: { spec: { containers: [{ name: 'sidecar', command: ['sleep', '10'] }] } } } })],
    },
    {
      name: 'strategic merge patch with null removes a key',
      steps: [create(DEPLOYMENTS, deployment), patch(D, STRATEGIC, { metadata: { labels: { app: null } } })],
    },
    {
      name: 'strategic merge patch to an invalid Deployment is 422 Invalid',
      steps: [create(DEPLOYMENTS, deployment), patch(D, STRATEGIC, { spec: { replicas: -3 } })],
    },
    {
      name: 'strategic merge patch of the Deployment scale subresource',
      steps: [create(DEPLOYMENTS, deployment), patch(`${D}/scale`, STRATEGIC, { spec: { replicas: 4 } }), get(`${D}/scale`)],
    },
  ],
};
