/**
 * The built-in resources the memory API server serves, as data: one row per resource
 * with what its registry strategy in kubernetes/pkg/registry does differently. The kinds
 * are those operators and opgen's examples and scaffold use.
 */
import type { ResourceInfo } from './resources.js';

type Row = [group: string, version: string, kind: string, plural: string, namespaced: boolean, extra?: Partial<ResourceInfo>];

const withStatus = (initialStatus: Record<string, unknown> = {}, generation: ResourceInfo['generation'] = 'spec'): Partial<ResourceInfo> => ({ status: true, generation, initialStatus });

const rows: Row[] = [
  ['', 'v1', 'Namespace', 'namespaces', false, { ...withStatus({ phase: 'Active' }, 'none'), nameRule: 'dns-label', selectableFields: ['status.phase'] }],
  ['', 'v1', 'ConfigMap', 'configmaps', true],
  ['', 'v1', 'Secret', 'secrets', true, { selectableFields: ['type'] }],
  ['', 'v1', 'Service', 'services', true, { ...withStatus({ loadBalancer: {} }, 'none'), nameRule: 'dns-1035-label', selectableFields: ['spec.clusterIP', 'spec.type'] }],
  ['', 'v1', 'Pod', 'pods', true, { ...withStatus({ phase: 'Pending' }), selectableFields: ['spec.nodeName', 'spec.restartPolicy', 'spec.schedulerName', 'spec.serviceAccountName', 'spec.hostNetwork', 'status.phase', 'status.podIP', 'status.nominatedNodeName'], fieldSelectorError: 'label' }],
  ['', 'v1', 'PersistentVolumeClaim', 'persistentvolumeclaims', true, { ...withStatus({ phase: 'Pending' }, 'none'), selectableFields: ['name'] }],
  ['', 'v1', 'PersistentVolume', 'persistentvolumes', false, { ...withStatus({ phase: 'Pending' }, 'none'), selectableFields: ['name'] }],
  ['', 'v1', 'ServiceAccount', 'serviceaccounts', true],
  ['', 'v1', 'Endpoints', 'endpoints', true, { allowCreateOnUpdate: true }],
  ['', 'v1', 'Event', 'events', true, { allowCreateOnUpdate: true, nameRule: 'path-segment', fieldSelectorError: 'label', selectableFields: ['involvedObject.kind', 'involvedObject.namespace', 'involvedObject.name', 'involvedObject.uid', 'involvedObject.apiVersion', 'involvedObject.resourceVersion', 'involvedObject.fieldPath', 'reason', 'reportingComponent', 'source', 'type'] }],
  ['', 'v1', 'Node', 'nodes', false, { ...withStatus({}, 'none'), selectableFields: ['spec.unschedulable'] }],
  ['apps', 'v1', 'Deployment', 'deployments', true, withStatus({}, 'spec-annotations')],
  ['apps', 'v1', 'StatefulSet', 'statefulsets', true, withStatus({ replicas: 0, availableReplicas: 0 })],
  ['apps', 'v1', 'DaemonSet', 'daemonsets', true, withStatus({ currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 })],
  ['apps', 'v1', 'ReplicaSet', 'replicasets', true, withStatus({ replicas: 0 })],
  ['batch', 'v1', 'Job', 'jobs', true, withStatus({})],
  ['batch', 'v1', 'CronJob', 'cronjobs', true, withStatus({})],
  ['coordination.k8s.io', 'v1', 'Lease', 'leases', true, { allowCreateOnUpdate: true }],
  ['events.k8s.io', 'v1', 'Event', 'events', true, { allowCreateOnUpdate: true, nameRule: 'path-segment' }],
  ['rbac.authorization.k8s.io', 'v1', 'Role', 'roles', true, { nameRule: 'path-segment' }],
  ['rbac.authorization.k8s.io', 'v1', 'RoleBinding', 'rolebindings', true, { nameRule: 'path-segment' }],
  ['rbac.authorization.k8s.io', 'v1', 'ClusterRole', 'clusterroles', false, { nameRule: 'path-segment' }],
  ['rbac.authorization.k8s.io', 'v1', 'ClusterRoleBinding', 'clusterrolebindings', false, { nameRule: 'path-segment' }],
  ['networking.k8s.io', 'v1', 'Ingress', 'ingresses', true, withStatus({ loadBalancer: {} }, 'spec')],
  ['policy', 'v1', 'PodDisruptionBudget', 'poddisruptionbudgets', true, withStatus({ disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 })],
  ['apiextensions.k8s.io', 'v1', 'CustomResourceDefinition', 'customresourcedefinitions', false, withStatus({}, 'spec')],
];

/** The built-in resources, defaults filled in. */
export const BUILTIN_RESOURCES: readonly ResourceInfo[] = rows.map(([group, version, kind, plural, namespaced, extra]) => ({
  group,
  version,
  kind,
  listKind: `${kind}List`,
  plural,
  singular: kind.toLowerCase(),
  namespaced,
  status: false,
  generation: 'none',
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  nameRule: 'dns-subdomain',
  selectableFields: [],
  fieldSelectorError: 'default',
  strategicMergePatch: true,
  ...extra,
}));
