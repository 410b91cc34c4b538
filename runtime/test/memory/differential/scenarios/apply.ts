import { WIDGETS } from '../crds.js';
import type { Area } from '../scenario.js';
import { APPLY, CONFIGMAPS, DEPLOYMENTS, MERGE, SERVICES, apply, configMap, create, get, patch, update, widget } from '../steps.js';
import { ref } from '../scenario.js';

const W = `${WIDGETS}/w`;
const A = `${CONFIGMAPS}/a`;
const D = `${DEPLOYMENTS}/d`;
const deployment = (containers: unknown[], replicas?: number): Record<string, unknown> => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'd' },
  spec: {
    ...(replicas !== undefined && { replicas }),
    selector: { matchLabels: { app: 'd' } },
    template: { metadata: { labels: { app: 'd' } }, spec: { containers } },
  },
});

/** Server-side apply: managedFields, conflicts and force, list-maps, atomic lists and maps, removal of fields no longer applied. */
export const applyArea: Area = {
  area: 'server-side apply',
  owner: 'ssa',
  scenarios: [
    { name: 'apply creates an object owned by its manager', steps: [apply(A, 'alice', configMap('a', { k: 'v' })), get(A)] },
    { name: 'apply without a fieldManager is refused', steps: [{ method: 'PATCH', path: A, contentType: APPLY, body: configMap('a', { k: 'v' }) }] },
    { name: 'apply twice with the same content changes nothing', steps: [apply(A, 'alice', configMap('a', { k: 'v' })), apply(A, 'alice', configMap('a', { k: 'v' }))] },
    { name: 'apply by a second manager of the same value shares ownership', steps: [apply(A, 'alice', configMap('a', { k: 'v' })), apply(A, 'bob', configMap('a', { k: 'v' }))] },
    { name: 'apply by a second manager of another value is 409 Conflict', steps: [apply(A, 'alice', configMap('a', { k: 'v' })), apply(A, 'bob', configMap('a', { k: 'other' }))] },
    { name: 'apply with force takes the field', steps: [apply(A, 'alice', configMap('a', { k: 'v' })), apply(A, 'bob', configMap('a', { k: 'other' }), { force: true }), get(A)] },
    { name: 'apply conflicts with a field set by an update', steps: [create(CONFIGMAPS, configMap('a', { k: 'v' })), apply(A, 'alice', configMap('a', { k: 'other' }))] },
    { name: 'apply conflict names every conflicting field and manager', steps: [apply(A, 'alice', configMap('a', { x: '1', y: '2' })), apply(A, 'bob', configMap('a', { y: '3' })), apply(A, 'carol', configMap('a', { x: '9', y: '9' }))] },
    { name: 'a field a manager stops applying is removed', steps: [apply(A, 'alice', configMap('a', { x: '1', y: '2' })), apply(A, 'alice', configMap('a', { x: '1' })), get(A)] },
    { name: 'a field another manager also owns stays when one stops applying it', steps: [apply(A, 'alice', configMap('a', { x: '1', y: '2' })), apply(A, 'bob', configMap('a', { y: '2' })), apply(A, 'alice', configMap('a', { x: '1' }))] },
    { name: 'an update after an apply takes the fields it changes', steps: [apply(A, 'alice', configMap('a', { x: '1' })), patch(A, MERGE, { data: { x: '2' } }, undefined, { fieldManager: 'editor' }), get(A)] },
    { name: 'an update with the same value leaves ownership with the applier', steps: [apply(A, 'alice', configMap('a', { x: '1' })), patch(A, MERGE, { data: { x: '1', y: '2' } }, undefined, { fieldManager: 'editor' })] },
    { name: 'apply of a Widget with defaults: defaulted fields are not owned', steps: [apply(W, 'alice', widget('w', { replicas: 2 })), get(W)] },
    { name: 'apply to a list-map merges by key (ports by name)', steps: [apply(W, 'alice', widget('w', { ports: [{ name: 'http', port: 80 }] })), apply(W, 'bob', widget('w', { ports: [{ name: 'https', port: 443 }] })), get(W)] },
    { name: 'apply list-map: a manager dropping its item removes only that item', steps: [apply(W, 'alice', widget('w', { ports: [{ name: 'http', port: 80 }] })), apply(W, 'bob', widget('w', { ports: [{ name: 'https', port: 443 }] })), apply(W, 'bob', widget('w', {})), get(W)] },
    { name: 'apply list-map: conflicting values in the same item', steps: [apply(W, 'alice', widget('w', { ports: [{ name: 'http', port: 80 }] })), apply(W, 'bob', widget('w', { ports: [{ name: 'http', port: 8080 }] }))] },
    { name: 'apply list-map with duplicate keys is refused', steps: [apply(W, 'alice', widget('w', { ports: [{ name: 'http', port: 80 }, { name: 'http', port: 81 }] }))] },
    { name: 'apply set list merges values of two managers', steps: [apply(W, 'alice', widget('w', { tags: ['a', 'b'] })), apply(W, 'bob', widget('w', { tags: ['c'] })), get(W)] },
    { name: 'apply atomic list is replaced whole and owned whole', steps: [apply(W, 'alice', widget('w', { args: ['a', 'b'] })), apply(W, 'bob', widget('w', { args: ['c'] }))] },
    { name: 'apply atomic list with force replaces it', steps: [apply(W, 'alice', widget('w', { args: ['a', 'b'] })), apply(W, 'bob', widget('w', { args: ['c'] }), { force: true }), get(W)] },
    { name: 'apply atomic map (x-kubernetes-map-type: atomic) conflicts as a whole', steps: [apply(W, 'alice', widget('w', { selector: { app: 'a' } })), apply(W, 'bob', widget('w', { selector: { tier: 't' } }))] },
    { name: 'apply granular map merges keys of two managers', steps: [apply(W, 'alice', widget('w', { labels: { a: '1' } })), apply(W, 'bob', widget('w', { labels: { b: '2' } })), get(W)] },
    { name: 'apply of a preserve-unknown-fields object', steps: [apply(W, 'alice', widget('w', { config: { deep: { x: 1 } } })), apply(W, 'bob', widget('w', { config: { other: true } })), get(W)] },
    { name: 'apply to /status owns status fields', steps: [apply(W, 'alice', widget('w', { replicas: 1 })), apply(`${W}/status`, 'status-writer', { apiVersion: 'diff.opgen.dev/v1', kind: 'Widget', metadata: { name: 'w' }, status: { phase: 'Ready' } }), get(W)] },
    { name: 'apply to /status of a missing object is 404 NotFound', steps: [apply(`${WIDGETS}/missing/status`, 'alice', { apiVersion: 'diff.opgen.dev/v1', kind: 'Widget', metadata: { name: 'missing' }, status: { phase: 'Ready' } })] },
    { name: 'apply with a name other than the path is refused', steps: [apply(A, 'alice', configMap('b', { k: 'v' }))] },
    { name: 'apply without apiVersion and kind is refused', steps: [apply(A, 'alice', { metadata: { name: 'a' }, data: { k: 'v' } })] },
    { name: 'apply of an invalid Widget is 422 Invalid', steps: [apply(W, 'alice', widget('w', { replicas: 99 }))] },
    { name: 'apply with a stale resourceVersion is 409 Conflict', steps: [apply(A, 'alice', configMap('a', { k: '1' }), { name: 'first' }), apply(A, 'alice', configMap('a', { k: '2' })), apply(A, 'alice', { ...configMap('a', { k: '3' }), metadata: { name: 'a', resourceVersion: ref('first', 'metadata.resourceVersion') } })] },
    { name: 'apply of a Deployment merges containers by name across managers', steps: [apply(D, 'alice', deployment([{ name: 'web', image: 'nginx' }], 1)), apply(D, 'bob', deployment([{ name: 'sidecar', image: 'busybox' }])), get(D)] },
    { name: 'apply of a Deployment: the replicas conflict and force', steps: [apply(D, 'alice', deployment([{ name: 'web', image: 'nginx' }], 1)), apply(D, 'hpa', deployment([{ name: 'web', image: 'nginx' }], 3)), apply(D, 'hpa', deployment([{ name: 'web', image: 'nginx' }], 3), { force: true })] },
    { name: 'apply of a Service merges ports by port and protocol', steps: [apply(`${SERVICES}/s`, 'alice', { apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec: { selector: { app: 's' }, ports: [{ name: 'http', port: 80 }] } }), get(`${SERVICES}/s`)] },
    { name: 'managedFields of an update-created object, then a second updater', steps: [create(WIDGETS, widget('w', { replicas: 1 })), patch(W, MERGE, { spec: { replicas: 2 } }, undefined, { fieldManager: 'scaler' })] },
    { name: 'an update with a new fieldManager adds an Update entry', steps: [create(CONFIGMAPS, configMap('a', { x: '1' }), 'created', { fieldManager: 'creator' }), update(A, configMap('a', { x: '1', y: '2' }), undefined, { fieldManager: 'updater' })] },
    { name: 'managedFields sent in an update replace the stored ones', steps: [create(CONFIGMAPS, configMap('a', { x: '1' }), 'created'), patch(A, MERGE, { metadata: { managedFields: [{ manager: 'someone', operation: 'Apply', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:x': {} } } }] } })] },
    { name: 'managedFields cleared with an empty entry', steps: [create(CONFIGMAPS, configMap('a', { x: '1' })), patch(A, MERGE, { metadata: { managedFields: [{}] } })] },
    { name: 'a fieldManager that is too long is refused', steps: [create(CONFIGMAPS, configMap('a'), undefined, { fieldManager: 'x'.repeat(200) })] },
    { name: 'apply with dryRun answers the result and stores nothing', steps: [{ ...apply(A, 'alice', configMap('a', { k: 'v' })), query: { fieldManager: 'alice', dryRun: 'All' } }, get(A)] },
    { name: 'force on a non-apply patch is refused', steps: [create(CONFIGMAPS, configMap('a')), patch(A, MERGE, { data: { k: 'v' } }, undefined, { force: true })] },
  ],
};
