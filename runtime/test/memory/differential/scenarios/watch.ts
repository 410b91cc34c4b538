import { WIDGETS } from '../crds.js';
import type { Area } from '../scenario.js';
import { ref } from '../scenario.js';
import { CONFIGMAPS, MERGE, SECRETS, configMap, create, events, patch, remove, update, watch, widget } from '../steps.js';

const W = `${WIDGETS}/w`;
const A = `${CONFIGMAPS}/a`;
const from = (step: string): Record<string, ReturnType<typeof ref>> => ({ resourceVersion: ref(step, 'metadata.resourceVersion') });

/** Watch: event order and content, selectors on watches, bookmarks and 410 Gone. */
export const watches: Area = {
  area: 'watch',
  owner: 'memserver',
  scenarios: [
    {
      name: 'watch from a resourceVersion replays the later writes in order',
      steps: [
        create(WIDGETS, widget('w'), 'created'),
        patch(W, MERGE, { spec: { replicas: 2 } }),
        patch(`${W}/status`, MERGE, { status: { phase: 'Ready' } }),
        remove(W),
        watch('w', WIDGETS, from('created')),
        events('w', 3),
      ],
    },
    {
      name: 'watch without a resourceVersion starts with ADDED for what exists',
      steps: [create(WIDGETS, widget('one')), create(WIDGETS, widget('two')), watch('w', WIDGETS), events('w', 2, true), patch(`${WIDGETS}/one`, MERGE, { spec: { replicas: 3 } }), events('w', 1)],
    },
    {
      name: 'watch from resourceVersion 0 starts with ADDED for what exists',
      steps: [create(WIDGETS, widget('one')), watch('w', WIDGETS, { resourceVersion: '0' }), events('w', 1)],
    },
    {
      name: 'a watch sees create, update and delete as they happen',
      steps: [
        watch('w', CONFIGMAPS, { labelSelector: 'watched=yes' }),
        create(CONFIGMAPS, configMap('a', { k: '1' }, { labels: { watched: 'yes' } })),
        update(A, configMap('a', { k: '2' }, { labels: { watched: 'yes' } })),
        remove(A),
        events('w', 3),
      ],
    },
    {
      name: 'a watch with a label selector sees objects enter and leave it',
      steps: [
        create(CONFIGMAPS, configMap('a', {}, { labels: { phase: 'one' } }), 'created'),
        watch('w', CONFIGMAPS, { labelSelector: 'phase=two', ...from('created') }),
        patch(A, MERGE, { metadata: { labels: { phase: 'two' } } }),
        patch(A, MERGE, { data: { k: 'v' } }),
        patch(A, MERGE, { metadata: { labels: { phase: 'three' } } }),
        events('w', 3),
      ],
    },
    {
      name: 'a watch with a field selector on metadata.name',
      steps: [
        create(SECRETS, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'other' } }, 'created'),
        watch('w', SECRETS, { fieldSelector: 'metadata.name=mine', ...from('created') }),
        create(SECRETS, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'mine' } }),
        patch(`${SECRETS}/other`, MERGE, { metadata: { labels: { a: 'b' } } }),
        patch(`${SECRETS}/mine`, MERGE, { metadata: { labels: { a: 'b' } } }),
        events('w', 2),
      ],
    },
    {
      name: 'a watch with a selectable field of a CRD',
      steps: [
        create(WIDGETS, widget('w', { size: 'small' }), 'created'),
        watch('w', WIDGETS, { fieldSelector: 'spec.size=large', ...from('created') }),
        patch(W, MERGE, { spec: { size: 'large' } }),
        create(WIDGETS, widget('v', { size: 'small' })),
        events('w', 1),
      ],
    },
    {
      name: 'a watch sees a finalized delete as MODIFIED then DELETED',
      steps: [
        create(WIDGETS, widget('w', {}, { finalizers: ['diff.opgen.dev/cleanup'] }), 'created'),
        watch('w', WIDGETS, from('created')),
        remove(W),
        patch(W, MERGE, { metadata: { finalizers: null } }),
        events('w', 2),
      ],
    },
    {
      name: 'a no-op write sends no event',
      steps: [
        create(CONFIGMAPS, configMap('a', { k: '1' }), 'created'),
        watch('w', CONFIGMAPS, { fieldSelector: 'metadata.name=a', ...from('created') }),
        patch(A, MERGE, { data: { k: '1' } }),
        patch(A, MERGE, { data: { k: '2' } }),
        events('w', 1),
      ],
    },
    {
      name: 'sendInitialEvents ends the initial ADDED events with a bookmark',
      steps: [
        create(WIDGETS, widget('one')),
        create(WIDGETS, widget('two'), 'two'),
        // From the last write's version: the watch cache has seen it, so the bookmark comes at once.
        watch('w', WIDGETS, { sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan', allowWatchBookmarks: true, ...from('two') }),
        events('w', 3),
      ],
    },
    {
      name: 'sendInitialEvents without resourceVersionMatch is refused',
      steps: [watch('w', WIDGETS, { sendInitialEvents: true, allowWatchBookmarks: true })],
    },
    {
      name: 'a watch from a resourceVersion too old ends with 410 Gone',
      memoryCluster: { historySize: 2 },
      steps: [create(WIDGETS, widget('a')), create(WIDGETS, widget('b')), create(WIDGETS, widget('c')), watch('w', WIDGETS, { resourceVersion: '1' }), events('w', 1)],
    },
    {
      name: 'a watch of one namespace does not see another',
      steps: [
        create(CONFIGMAPS, configMap('a', {}, { labels: { w: 'x' } }), 'created'),
        watch('w', CONFIGMAPS, { labelSelector: 'w=x', ...from('created') }),
        create('/api/v1/namespaces/default/configmaps', configMap('{ns}-elsewhere', {}, { labels: { w: 'x' } })),
        patch(A, MERGE, { data: { k: 'v' } }),
        remove('/api/v1/namespaces/default/configmaps/{ns}-elsewhere'),
        events('w', 1),
      ],
    },
    {
      name: 'a watch that is not a valid label selector is 400 BadRequest',
      steps: [watch('w', CONFIGMAPS, { labelSelector: 'a in b' })],
    },
  ],
};
