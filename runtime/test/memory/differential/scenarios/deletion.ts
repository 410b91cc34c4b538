import { WIDGETS } from '../crds.js';
import type { Area } from '../scenario.js';
import { CONFIGMAPS, JSON_PATCH, MERGE, PODS, configMap, create, get, patch, pod, remove, settleGone, update, widget } from '../steps.js';
import { ref } from '../scenario.js';

const W = `${WIDGETS}/w`;
const FIN = 'diff.opgen.dev/cleanup';
const finalized = widget('w', { replicas: 1 }, { finalizers: [FIN] });
const options = (extra: Record<string, unknown>): Record<string, unknown> => ({ apiVersion: 'v1', kind: 'DeleteOptions', ...extra });

/** Finalizers, deletionTimestamp and deletionGracePeriodSeconds, and graceful deletion of Pods. */
export const deletion: Area = {
  area: 'deletion and finalizers',
  owner: 'memserver',
  scenarios: [
    {
      name: 'delete of an object with a finalizer sets deletionTimestamp and keeps it',
      steps: [create(WIDGETS, finalized), remove(W), get(W)],
    },
    {
      name: 'removing the last finalizer of a deleted object deletes it',
      steps: [create(WIDGETS, finalized), remove(W), patch(W, MERGE, { metadata: { finalizers: null } }), get(W)],
    },
    {
      name: 'removing the finalizer with a JSON patch deletes it',
      steps: [create(WIDGETS, finalized), remove(W), patch(W, JSON_PATCH, [{ op: 'remove', path: '/metadata/finalizers/0' }]), get(W)],
    },
    {
      name: 'a second delete of an object being deleted changes nothing',
      steps: [create(WIDGETS, finalized), remove(W), remove(W), get(W)],
    },
    {
      name: 'a new finalizer cannot be added to an object being deleted',
      steps: [create(WIDGETS, finalized), remove(W), patch(W, MERGE, { metadata: { finalizers: [FIN, 'diff.opgen.dev/another'] } })],
    },
    {
      name: 'the spec of an object being deleted can still change',
      steps: [create(WIDGETS, finalized), remove(W), patch(W, MERGE, { spec: { replicas: 2 } })],
    },
    {
      name: 'the status of an object being deleted can still change',
      steps: [create(WIDGETS, finalized), remove(W), patch(`${W}/status`, MERGE, { status: { phase: 'Pending' } })],
    },
    {
      name: 'deletionTimestamp cannot be removed by an update',
      steps: [create(WIDGETS, finalized), remove(W, undefined, undefined, 'deleting'), update(W, { ...widget('w', { replicas: 1 }, { finalizers: [FIN], resourceVersion: ref('deleting', 'metadata.resourceVersion') }) }), get(W)],
    },
    {
      name: 'a finalizer with an invalid name is 422 Invalid',
      steps: [create(WIDGETS, widget('w', {}, { finalizers: ['not a valid finalizer'] }))],
    },
    {
      name: 'a finalizer without a domain on a custom resource is accepted with a warning',
      steps: [create(WIDGETS, widget('w', {}, { finalizers: ['cleanup'] })), patch(W, MERGE, { metadata: { finalizers: null } })],
    },
    {
      name: 'delete with a finalizer and propagationPolicy=Orphan adds the orphan finalizer',
      steps: [create(WIDGETS, finalized), remove(W, options({ propagationPolicy: 'Orphan' })), patch(W, MERGE, { metadata: { finalizers: ['orphan'] } }), settleGone(W)],
    },
    {
      name: 'delete with propagationPolicy=Foreground and no dependents ends with the object gone',
      steps: [create(WIDGETS, widget('w')), remove(W, options({ propagationPolicy: 'Foreground' })), settleGone(W)],
    },
    {
      name: 'delete with an invalid propagationPolicy is refused',
      steps: [create(WIDGETS, widget('w')), remove(W, options({ propagationPolicy: 'Sideways' }))],
    },
    {
      name: 'delete of a ConfigMap with a finalizer and gracePeriodSeconds',
      steps: [
        create(CONFIGMAPS, configMap('a', {}, { finalizers: [FIN] })),
        remove(`${CONFIGMAPS}/a`, options({ gracePeriodSeconds: 30 })),
        get(`${CONFIGMAPS}/a`),
        patch(`${CONFIGMAPS}/a`, MERGE, { metadata: { finalizers: null } }),
        get(`${CONFIGMAPS}/a`),
      ],
    },
    {
      name: 'an unscheduled Pod is deleted at once despite its grace period',
      steps: [create(PODS, pod('p'), undefined, undefined), remove(`${PODS}/p`), get(`${PODS}/p`)],
    },
    {
      name: 'a Pod with a finalizer gets deletionTimestamp and deletionGracePeriodSeconds',
      steps: [create(PODS, pod('p', { finalizers: [FIN] })), remove(`${PODS}/p`, options({ gracePeriodSeconds: 10 })), patch(`${PODS}/p`, MERGE, { metadata: { finalizers: null } }), get(`${PODS}/p`)],
    },
    {
      name: 'delete with dryRun=All changes nothing',
      steps: [create(WIDGETS, widget('w')), remove(W, undefined, { dryRun: 'All' }), get(W)],
    },
    {
      // Cluster-scoped: named after the scenario's namespace to stay unique on the real cluster.
      name: 'a new PersistentVolume gets the pv-protection finalizer and its defaults',
      steps: [
        create('/api/v1/persistentvolumes', {
          apiVersion: 'v1',
          kind: 'PersistentVolume',
          metadata: { name: 'pv-{ns}' },
          spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/tmp/{ns}' } },
        }),
      ],
    },
  ],
};
