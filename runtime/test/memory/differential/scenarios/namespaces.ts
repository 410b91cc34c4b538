import type { Area } from '../scenario.js';
import { MERGE, NAMESPACES, configMap, create, get, patch, remove, settleGone, widget } from '../steps.js';

const NS = `${NAMESPACES}/{ns}-x`;
const namespace = (labels: Record<string, string> = {}): Record<string, unknown> => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: '{ns}-x', labels } });
const FIN = 'diff.opgen.dev/cleanup';

/** Namespaces: creation, their automatic label, and their deletion (by kube-controller-manager's namespace controller). */
export const namespaces: Area = {
  area: 'namespaces',
  owner: 'memserver',
  scenarios: [
    { name: 'a new namespace is Active with the kubernetes finalizer and its name label', noNamespace: true, steps: [create(NAMESPACES, namespace({ team: 'a' })), get(NS), remove(NS), settleGone(NS)] },
    { name: 'the metadata.name label of a namespace cannot be changed', noNamespace: true, steps: [create(NAMESPACES, namespace()), patch(NS, MERGE, { metadata: { labels: { 'kubernetes.io/metadata.name': 'other' } } }), remove(NS), settleGone(NS)] },
    { name: 'a namespace with an invalid name is 422 Invalid', noNamespace: true, steps: [create(NAMESPACES, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'Not.A.Label' } })] },
    {
      name: 'deleting a namespace answers it Terminating, and then it is gone with its content',
      noNamespace: true,
      steps: [
        create(NAMESPACES, namespace()),
        create(`${NS}/configmaps`, configMap('inside')),
        create('/apis/diff.opgen.dev/v1/namespaces/{ns}-x/widgets', widget('w')),
        remove(NS),
        settleGone(NS),
        get(`${NS}/configmaps/inside`),
      ],
    },
    {
      name: 'nothing can be created in a namespace being deleted',
      noNamespace: true,
      steps: [
        create(NAMESPACES, namespace()),
        create('/apis/diff.opgen.dev/v1/namespaces/{ns}-x/widgets', widget('w', {}, { finalizers: [FIN] })),
        remove(NS),
        create(`${NS}/configmaps`, configMap('late')),
        patch('/apis/diff.opgen.dev/v1/namespaces/{ns}-x/widgets/w', MERGE, { metadata: { finalizers: null } }),
        settleGone(NS),
      ],
    },
    {
      name: 'a namespace waits for the finalizers of its content',
      noNamespace: true,
      steps: [
        create(NAMESPACES, namespace()),
        create('/apis/diff.opgen.dev/v1/namespaces/{ns}-x/widgets', widget('w', {}, { finalizers: [FIN] })),
        remove(NS),
        { op: 'settle', path: '/apis/diff.opgen.dev/v1/namespaces/{ns}-x/widgets/w', until: { field: 'metadata.deletionTimestamp', exists: true } },
        patch('/apis/diff.opgen.dev/v1/namespaces/{ns}-x/widgets/w', MERGE, { metadata: { finalizers: null } }),
        settleGone(NS),
      ],
    },
    { name: 'deleting a namespace that does not exist is 404 NotFound', noNamespace: true, steps: [remove(`${NAMESPACES}/{ns}-never`)] },
    { name: 'a namespace that exists is 409 AlreadyExists', steps: [create(NAMESPACES, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: '{ns}' } })] },
    { name: 'the default and kube-system namespaces exist', noNamespace: true, steps: [{ ...get(`${NAMESPACES}/default`), quiet: true }, { ...get(`${NAMESPACES}/kube-system`), quiet: true }] },
  ],
};
