import { GIZMOS, WIDGETS } from '../crds.js';
import type { Area } from '../scenario.js';
import { CONFIGMAPS, GC_SEES_DEPENDENTS, MERGE, configMap, create, get, ownerRef, patch, remove, settleExists, settleField, settleGone, widget } from '../steps.js';

const W = `${WIDGETS}/w`;
const FIN = 'diff.opgen.dev/cleanup';
const options = (propagationPolicy: string): Record<string, unknown> => ({ apiVersion: 'v1', kind: 'DeleteOptions', propagationPolicy });
const owned = (name: string, extra: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}): Record<string, unknown> =>
  configMap(name, { k: 'v' }, { ownerReferences: [ownerRef('owner', 'diff.opgen.dev/v1', 'Widget', 'w', extra)], ...metadata });

/** Owner-reference garbage collection as kube-controller-manager does it. */
export const gc: Area = {
  area: 'garbage collection',
  owner: 'memserver',
  scenarios: [
    {
      name: 'background deletion collects a dependent',
      steps: [create(WIDGETS, widget('w'), 'owner'), create(CONFIGMAPS, owned('dep', { controller: true })), remove(W), settleGone(`${CONFIGMAPS}/dep`)],
    },
    {
      name: 'background deletion collects dependents of dependents',
      steps: [
        create(WIDGETS, widget('w'), 'owner'),
        create(CONFIGMAPS, owned('child'), 'child'),
        create(CONFIGMAPS, configMap('grandchild', {}, { ownerReferences: [ownerRef('child', 'v1', 'ConfigMap', 'child')] })),
        remove(W),
        settleGone(`${CONFIGMAPS}/grandchild`),
        get(`${CONFIGMAPS}/child`),
      ],
    },
    {
      name: 'foreground deletion: the owner waits with foregroundDeletion while dependents go',
      steps: [
        create(WIDGETS, widget('w'), 'owner'),
        create(CONFIGMAPS, owned('dep', { blockOwnerDeletion: true })),
        remove(W, options('Foreground')),
        settleGone(W),
        get(`${CONFIGMAPS}/dep`),
      ],
    },
    {
      name: 'foreground deletion is held by a dependent with blockOwnerDeletion and a finalizer',
      steps: [
        create(WIDGETS, widget('w'), 'owner'),
        create(CONFIGMAPS, owned('dep', { blockOwnerDeletion: true }, { finalizers: [FIN] })),
        GC_SEES_DEPENDENTS,
        remove(W, options('Foreground')),
        settleExists(`${CONFIGMAPS}/dep`, 'metadata.deletionTimestamp'),
        get(W),
        patch(`${CONFIGMAPS}/dep`, MERGE, { metadata: { finalizers: null } }),
        settleGone(W),
      ],
    },
    {
      name: 'orphan deletion leaves the dependent without its owner reference',
      steps: [
        create(WIDGETS, widget('w'), 'owner'),
        create(CONFIGMAPS, owned('dep', { controller: true })),
        GC_SEES_DEPENDENTS,
        remove(W, options('Orphan')),
        settleGone(W),
        get(`${CONFIGMAPS}/dep`),
      ],
    },
    {
      name: 'a dependent whose owner does not exist is collected',
      steps: [
        create(CONFIGMAPS, configMap('dep', {}, { ownerReferences: [{ apiVersion: 'diff.opgen.dev/v1', kind: 'Widget', name: 'ghost', uid: '00000000-0000-0000-0000-00000000dead' }] })),
        settleGone(`${CONFIGMAPS}/dep`),
      ],
    },
    {
      name: 'a dependent with a second, living owner keeps it and loses the dead one',
      steps: [
        create(WIDGETS, widget('w'), 'owner'),
        create(WIDGETS, widget('v'), 'other'),
        create(CONFIGMAPS, configMap('dep', {}, { ownerReferences: [ownerRef('owner', 'diff.opgen.dev/v1', 'Widget', 'w'), ownerRef('other', 'diff.opgen.dev/v1', 'Widget', 'v')] })),
        remove(W),
        settleField(`${CONFIGMAPS}/dep`, 'metadata.ownerReferences.0.name', 'v'),
      ],
    },
    {
      name: 'a cluster-scoped owner collects a namespaced dependent',
      steps: [
        create(GIZMOS, { apiVersion: 'diff.opgen.dev/v1', kind: 'Gizmo', metadata: { name: '{ns}-owner' } }, 'gizmo'),
        create(CONFIGMAPS, configMap('dep', {}, { ownerReferences: [ownerRef('gizmo', 'diff.opgen.dev/v1', 'Gizmo', '{ns}-owner')] })),
        remove(`${GIZMOS}/{ns}-owner`),
        settleGone(`${CONFIGMAPS}/dep`),
      ],
    },
    {
      name: 'deleting the dependent leaves the owner',
      steps: [create(WIDGETS, widget('w'), 'owner'), create(CONFIGMAPS, owned('dep')), remove(`${CONFIGMAPS}/dep`), get(W)],
    },
    {
      name: 'an owner reference without a uid is 422 Invalid',
      steps: [create(CONFIGMAPS, configMap('dep', {}, { ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'x', uid: '' }] }))],
    },
    {
      name: 'two controller owner references are 422 Invalid',
      steps: [
        create(WIDGETS, widget('w'), 'owner'),
        create(WIDGETS, widget('v'), 'other'),
        create(
          CONFIGMAPS,
          configMap('dep', {}, {
            ownerReferences: [ownerRef('owner', 'diff.opgen.dev/v1', 'Widget', 'w', { controller: true }), ownerRef('other', 'diff.opgen.dev/v1', 'Widget', 'v', { controller: true })],
          }),
        ),
      ],
    },
    {
      name: 'the orphan finalizer on the owner is removed once dependents are orphaned',
      steps: [
        create(WIDGETS, widget('w', {}, { finalizers: ['orphan'] }), 'owner'),
        create(CONFIGMAPS, owned('dep')),
        GC_SEES_DEPENDENTS,
        remove(W),
        settleGone(W),
        get(`${CONFIGMAPS}/dep`),
      ],
    },
  ],
};
