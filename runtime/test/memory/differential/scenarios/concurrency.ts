import { WIDGETS } from '../crds.js';
import type { Area } from '../scenario.js';
import { ref } from '../scenario.js';
import { CONFIGMAPS, MERGE, JSON_PATCH, configMap, create, get, patch, update, widget } from '../steps.js';

const at = (step: string): { resourceVersion: ReturnType<typeof ref> } => ({ resourceVersion: ref(step, 'metadata.resourceVersion') });

/** resourceVersion: changes on every write and not on a no-op, and optimistic concurrency's 409. */
export const concurrency: Area = {
  area: 'resourceVersion and conflicts',
  owner: 'memserver',
  scenarios: [
    {
      name: 'every write gets a newer resourceVersion',
      steps: [
        create(CONFIGMAPS, configMap('a', { k: '1' })),
        update(`${CONFIGMAPS}/a`, configMap('a', { k: '2' })),
        patch(`${CONFIGMAPS}/a`, MERGE, { data: { k: '3' } }),
        get(`${CONFIGMAPS}/a`),
      ],
    },
    {
      name: 'update with a stale resourceVersion is 409 Conflict',
      steps: [
        create(CONFIGMAPS, configMap('a', { k: '1' }), 'v1'),
        update(`${CONFIGMAPS}/a`, configMap('a', { k: '2' })),
        update(`${CONFIGMAPS}/a`, configMap('a', { k: '3' }, at('v1'))),
        get(`${CONFIGMAPS}/a`),
      ],
    },
    {
      name: 'update of a Widget with a stale resourceVersion is 409 Conflict',
      steps: [
        create(WIDGETS, widget('w', { replicas: 1 }), 'v1'),
        update(`${WIDGETS}/w`, widget('w', { replicas: 2 }, at('v1'))),
        update(`${WIDGETS}/w`, widget('w', { replicas: 3 }, at('v1'))),
      ],
    },
    {
      name: 'update with the current resourceVersion succeeds',
      steps: [create(CONFIGMAPS, configMap('a', { k: '1' }), 'v1'), update(`${CONFIGMAPS}/a`, configMap('a', { k: '2' }, at('v1')))],
    },
    {
      name: 'an update that changes nothing keeps the resourceVersion',
      steps: [create(CONFIGMAPS, configMap('a', { k: '1' }), 'v1'), update(`${CONFIGMAPS}/a`, configMap('a', { k: '1' }, at('v1'))), get(`${CONFIGMAPS}/a`)],
    },
    {
      name: 'a Widget update that changes nothing keeps resourceVersion and generation',
      steps: [create(WIDGETS, widget('w', { replicas: 1 }), 'v1'), update(`${WIDGETS}/w`, widget('w', { replicas: 1 }, at('v1'))), get(`${WIDGETS}/w`)],
    },
    {
      name: 'a merge patch that changes nothing keeps the resourceVersion',
      steps: [create(CONFIGMAPS, configMap('a', { k: '1' })), patch(`${CONFIGMAPS}/a`, MERGE, { data: { k: '1' } })],
    },
    {
      name: 'a merge patch with a stale resourceVersion is 409 Conflict',
      steps: [
        create(CONFIGMAPS, configMap('a', { k: '1' }), 'v1'),
        patch(`${CONFIGMAPS}/a`, MERGE, { data: { k: '2' } }),
        patch(`${CONFIGMAPS}/a`, MERGE, { metadata: { resourceVersion: ref('v1', 'metadata.resourceVersion') }, data: { k: '3' } }),
      ],
    },
    {
      name: 'a merge patch with the current resourceVersion succeeds',
      steps: [
        create(CONFIGMAPS, configMap('a', { k: '1' }), 'v1'),
        patch(`${CONFIGMAPS}/a`, MERGE, { metadata: { resourceVersion: ref('v1', 'metadata.resourceVersion') }, data: { k: '2' } }),
      ],
    },
    {
      name: 'a JSON patch test operation on resourceVersion guards the write',
      steps: [
        create(CONFIGMAPS, configMap('a', { k: '1' }), 'v1'),
        patch(`${CONFIGMAPS}/a`, MERGE, { data: { k: '2' } }),
        patch(`${CONFIGMAPS}/a`, JSON_PATCH, [
          { op: 'test', path: '/metadata/resourceVersion', value: ref('v1', 'metadata.resourceVersion') },
          { op: 'replace', path: '/data/k', value: '3' },
        ]),
      ],
    },
    {
      name: 'update with a resourceVersion that is not a number is refused',
      steps: [create(CONFIGMAPS, configMap('a', { k: '1' })), update(`${CONFIGMAPS}/a`, configMap('a', { k: '2' }, { resourceVersion: 'abc' }))],
    },
    {
      name: 'update with a uid other than the object is 409 Conflict',
      steps: [create(CONFIGMAPS, configMap('a', { k: '1' })), update(`${CONFIGMAPS}/a`, configMap('a', { k: '2' }, { uid: '00000000-0000-0000-0000-000000000003' }))],
    },
    {
      name: 'a deleted and recreated object gets a new uid and a newer resourceVersion',
      steps: [
        create(CONFIGMAPS, configMap('a', { k: '1' })),
        { method: 'DELETE', path: `${CONFIGMAPS}/a` },
        create(CONFIGMAPS, configMap('a', { k: '1' })),
      ],
    },
  ],
};
