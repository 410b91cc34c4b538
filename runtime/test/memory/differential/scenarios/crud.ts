import { WIDGETS, GIZMOS } from '../crds.js';
import type { Area } from '../scenario.js';
import { ref } from '../scenario.js';
import { CONFIGMAPS, SECRETS, configMap, create, get, remove, update, widget } from '../steps.js';

const secret = (name: string, data: Record<string, string> = {}): Record<string, unknown> => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name },
  stringData: data,
});
const gizmo = (name: string, spec: Record<string, unknown> = {}): Record<string, unknown> => ({
  apiVersion: 'diff.opgen.dev/v1',
  kind: 'Gizmo',
  metadata: { name, labels: { scenario: '{ns}' } },
  spec,
});

/** create/get/update/delete/list of built-in and custom objects, and how each fails. */
export const crud: Area = {
  area: 'CRUD',
  owner: 'memserver',
  scenarios: [
    {
      name: 'create then get a ConfigMap',
      steps: [create(CONFIGMAPS, configMap('a', { k: 'v' })), get(`${CONFIGMAPS}/a`)],
    },
    {
      name: 'create a ConfigMap that exists is 409 AlreadyExists',
      steps: [create(CONFIGMAPS, configMap('a')), create(CONFIGMAPS, configMap('a', { other: 'x' }))],
    },
    { name: 'get a missing ConfigMap is 404 NotFound', steps: [get(`${CONFIGMAPS}/missing`)] },
    { name: 'get a missing Widget is 404 NotFound', steps: [get(`${WIDGETS}/missing`)] },
    {
      name: 'create with a namespace other than the path is 400 BadRequest',
      steps: [create(CONFIGMAPS, configMap('a', {}, { namespace: 'elsewhere' }))],
    },
    { name: 'create without a name is 422 Invalid', steps: [create(CONFIGMAPS, { apiVersion: 'v1', kind: 'ConfigMap', data: {} })] },
    { name: 'create with an invalid name is 422 Invalid', steps: [create(CONFIGMAPS, configMap('Not_Valid'))] },
    { name: 'create a Widget with an invalid name is 422 Invalid', steps: [create(WIDGETS, widget('Bad.Name_'))] },
    {
      name: 'create with generateName gets a generated name',
      steps: [create(CONFIGMAPS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'gen-' } })],
    },
    {
      name: 'create with a resourceVersion set is refused',
      steps: [create(CONFIGMAPS, configMap('a', {}, { resourceVersion: '5' }))],
    },
    {
      name: 'create ignores a uid and timestamps sent by the client',
      steps: [
        create(CONFIGMAPS, configMap('a', {}, { uid: '00000000-0000-0000-0000-000000000001', creationTimestamp: '2020-01-01T00:00:00Z' })),
      ],
    },
    { name: 'create a ConfigMap with an invalid data key is 422 Invalid', steps: [create(CONFIGMAPS, configMap('a', { 'bad key!': 'v' }))] },
    { name: 'create with an invalid label value is 422 Invalid', steps: [create(CONFIGMAPS, configMap('a', {}, { labels: { app: 'not valid!' } }))] },
    {
      name: 'create a Secret: stringData is folded into base64 data',
      steps: [create(SECRETS, secret('s', { password: 'hunter2' })), get(`${SECRETS}/s`)],
    },
    {
      name: 'update a ConfigMap without a resourceVersion succeeds (unconditional update)',
      steps: [create(CONFIGMAPS, configMap('a', { k: '1' })), update(`${CONFIGMAPS}/a`, configMap('a', { k: '2' })), get(`${CONFIGMAPS}/a`)],
    },
    {
      name: 'update a Widget without a resourceVersion is 422 Invalid',
      steps: [create(WIDGETS, widget('w', { replicas: 1 })), update(`${WIDGETS}/w`, widget('w', { replicas: 2 }))],
    },
    { name: 'update a missing ConfigMap is 404 NotFound', steps: [update(`${CONFIGMAPS}/missing`, configMap('missing', { k: '1' }))] },
    { name: 'update a missing Widget is 404 NotFound', steps: [update(`${WIDGETS}/missing`, widget('missing'))] },
    {
      name: 'update with a name other than the path is 400 BadRequest',
      steps: [create(CONFIGMAPS, configMap('a')), update(`${CONFIGMAPS}/a`, configMap('b'))],
    },
    {
      name: 'delete a ConfigMap answers a Success Status, then get is 404',
      steps: [create(CONFIGMAPS, configMap('a')), remove(`${CONFIGMAPS}/a`), get(`${CONFIGMAPS}/a`)],
    },
    {
      name: 'delete a Widget answers a Success Status',
      steps: [create(WIDGETS, widget('w')), remove(`${WIDGETS}/w`), get(`${WIDGETS}/w`)],
    },
    { name: 'delete a missing ConfigMap is 404 NotFound', steps: [remove(`${CONFIGMAPS}/missing`)] },
    {
      name: 'delete with a wrong uid precondition is 409 Conflict',
      steps: [
        create(CONFIGMAPS, configMap('a')),
        remove(`${CONFIGMAPS}/a`, { apiVersion: 'v1', kind: 'DeleteOptions', preconditions: { uid: '00000000-0000-0000-0000-000000000002' } }),
      ],
    },
    {
      name: 'delete with a stale resourceVersion precondition is 409 Conflict',
      steps: [
        create(CONFIGMAPS, configMap('a'), 'created'),
        update(`${CONFIGMAPS}/a`, configMap('a', { k: 'changed' })),
        remove(`${CONFIGMAPS}/a`, { apiVersion: 'v1', kind: 'DeleteOptions', preconditions: { resourceVersion: ref('created', 'metadata.resourceVersion') } }),
      ],
    },
    {
      name: 'delete with matching preconditions deletes',
      steps: [
        create(CONFIGMAPS, configMap('a'), 'created'),
        remove(`${CONFIGMAPS}/a`, {
          apiVersion: 'v1',
          kind: 'DeleteOptions',
          preconditions: { uid: ref('created', 'metadata.uid'), resourceVersion: ref('created', 'metadata.resourceVersion') },
        }),
        get(`${CONFIGMAPS}/a`),
      ],
    },
    {
      name: 'list Secrets in an empty namespace',
      steps: [get(SECRETS)],
    },
    {
      name: 'list Secrets returns them sorted by name',
      steps: [create(SECRETS, secret('c')), create(SECRETS, secret('a')), create(SECRETS, secret('b')), get(SECRETS)],
    },
    {
      name: 'list with limit pages through with continue',
      steps: [
        create(SECRETS, secret('a')),
        create(SECRETS, secret('b')),
        create(SECRETS, secret('c')),
        get(SECRETS, { limit: 2 }, 'page1'),
        get(SECRETS, { limit: 2, continue: ref('page1', 'metadata.continue') }),
      ],
    },
    {
      name: 'list Widgets across pages and the Widget list kind',
      steps: [create(WIDGETS, widget('one')), create(WIDGETS, widget('two')), get(WIDGETS, { limit: 1 })],
    },
    {
      name: 'create, get, list and delete a cluster-scoped Gizmo',
      noNamespace: true,
      steps: [
        create(GIZMOS, gizmo('{ns}-g', { anything: { goes: [1, 'two'] } })),
        get(`${GIZMOS}/{ns}-g`),
        get(GIZMOS, { labelSelector: 'scenario={ns}' }),
        remove(`${GIZMOS}/{ns}-g`),
        get(`${GIZMOS}/{ns}-g`),
      ],
    },
    {
      name: 'a cluster-scoped kind under a namespace path is 404',
      steps: [create('/apis/diff.opgen.dev/v1/namespaces/{ns}/gizmos', gizmo('g'))],
    },
    {
      name: 'create in a namespace that does not exist is 404 NotFound',
      noNamespace: true,
      steps: [create('/api/v1/namespaces/{ns}-nowhere/configmaps', configMap('a'))],
    },
    {
      name: 'create a Widget in a namespace that does not exist is 404 NotFound',
      noNamespace: true,
      steps: [create('/apis/diff.opgen.dev/v1/namespaces/{ns}-nowhere/widgets', widget('w'))],
    },
    {
      name: 'a resource that is not served is 404',
      steps: [get('/apis/diff.opgen.dev/v1/namespaces/{ns}/sprockets'), get('/apis/nothing.opgen.dev/v1/namespaces/{ns}/things')],
    },
    {
      name: 'create with dryRun=All answers the object and stores nothing',
      steps: [create(CONFIGMAPS, configMap('a', { k: 'v' }), undefined, { dryRun: 'All' }), get(`${CONFIGMAPS}/a`)],
    },
    {
      name: 'get with resourceVersion=0 answers the object',
      // resourceVersion=0 reads the API server's watch cache, which may not hold a create of a
      // moment ago: a list not older than the create waits for the cache to catch up first.
      steps: [
        create(CONFIGMAPS, configMap('a'), 'made'),
        get(CONFIGMAPS, { resourceVersion: ref('made', 'metadata.resourceVersion'), resourceVersionMatch: 'NotOlderThan' }),
        get(`${CONFIGMAPS}/a`, { resourceVersion: '0' }),
      ],
    },
    {
      name: 'create a ConfigMap with the wrong kind in the body is 400 BadRequest',
      steps: [create(CONFIGMAPS, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'a' } })],
    },
    {
      name: 'create a Widget with the wrong apiVersion in the body is 400 BadRequest',
      steps: [create(WIDGETS, { apiVersion: 'diff.opgen.dev/v2', kind: 'Widget', metadata: { name: 'w' } })],
    },
    {
      name: 'labels and annotations round-trip; metadata fields the server owns are not taken from the client',
      steps: [
        create(WIDGETS, widget('w', {}, { labels: { a: 'b' }, annotations: { note: 'x' }, generation: 7, deletionTimestamp: '2020-01-01T00:00:00Z' })),
      ],
    },
  ],
};
