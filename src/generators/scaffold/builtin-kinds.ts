/**
 * The built-in kinds a controller can be scaffolded for with `create api --resource=false`:
 * those `@opgen/runtime` has a `kinds.*` handle for. The CLI keeps its own copy of the
 * table because it never imports the runtime (test/generators/builtin-kinds.test.ts
 * checks the two agree).
 *
 * @module
 */

/** One built-in kind, named as kubebuilder's PROJECT records a core type. */
export interface BuiltinKind {
  /** kubebuilder's short group: `core`, `apps`, `networking` (of networking.k8s.io). */
  group: string;
  /** The rest of the API group: '' or `k8s.io`. */
  domain: string;
  /** The API group on the wire: '' for core, `apps`, `networking.k8s.io`. */
  apiGroup: string;
  version: string;
  kind: string;
  plural: string;
  namespaced: boolean;
  /** The Go import path kubebuilder records as the resource's `path`. */
  path: string;
}

const table: [apiGroup: string, version: string, kind: string, plural: string, namespaced: boolean][] = [
  ['', 'v1', 'Pod', 'pods', true],
  ['', 'v1', 'Service', 'services', true],
  ['', 'v1', 'ConfigMap', 'configmaps', true],
  ['', 'v1', 'Secret', 'secrets', true],
  ['', 'v1', 'PersistentVolumeClaim', 'persistentvolumeclaims', true],
  ['', 'v1', 'PersistentVolume', 'persistentvolumes', false],
  ['', 'v1', 'ServiceAccount', 'serviceaccounts', true],
  ['', 'v1', 'Namespace', 'namespaces', false],
  ['', 'v1', 'Node', 'nodes', false],
  ['apps', 'v1', 'Deployment', 'deployments', true],
  ['apps', 'v1', 'StatefulSet', 'statefulsets', true],
  ['apps', 'v1', 'DaemonSet', 'daemonsets', true],
  ['apps', 'v1', 'ReplicaSet', 'replicasets', true],
  ['batch', 'v1', 'Job', 'jobs', true],
  ['batch', 'v1', 'CronJob', 'cronjobs', true],
  ['coordination.k8s.io', 'v1', 'Lease', 'leases', true],
  ['events.k8s.io', 'v1', 'Event', 'events', true],
  ['networking.k8s.io', 'v1', 'Ingress', 'ingresses', true],
  ['networking.k8s.io', 'v1', 'NetworkPolicy', 'networkpolicies', true],
  ['discovery.k8s.io', 'v1', 'EndpointSlice', 'endpointslices', true],
  ['rbac.authorization.k8s.io', 'v1', 'Role', 'roles', true],
  ['rbac.authorization.k8s.io', 'v1', 'RoleBinding', 'rolebindings', true],
  ['rbac.authorization.k8s.io', 'v1', 'ClusterRole', 'clusterroles', false],
  ['rbac.authorization.k8s.io', 'v1', 'ClusterRoleBinding', 'clusterrolebindings', false],
  ['policy', 'v1', 'PodDisruptionBudget', 'poddisruptionbudgets', true],
  ['autoscaling', 'v2', 'HorizontalPodAutoscaler', 'horizontalpodautoscalers', true],
  ['apiextensions.k8s.io', 'v1', 'CustomResourceDefinition', 'customresourcedefinitions', false],
];

/** Every built-in kind the runtime has a handle for. */
export const builtinKinds: readonly BuiltinKind[] = table.map(([apiGroup, version, kind, plural, namespaced]) => {
  const group = apiGroup === '' ? 'core' : apiGroup.replace(/\.k8s\.io$/, '');
  const domain = apiGroup.endsWith('.k8s.io') ? 'k8s.io' : '';
  const pkg = group.split('.')[0]!;
  const path = pkg === 'apiextensions' ? `k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/${version}` : `k8s.io/api/${pkg}/${version}`;
  return { group, domain, apiGroup, version, kind, plural, namespaced, path };
});

/**
 * The built-in kind `--group`/`--version`/`--kind` name, if any. The group may be given
 * as kubebuilder does (`core`, `apps`, `networking`) or as on the wire (`networking.k8s.io`).
 */
export function findBuiltinKind(group: string, version: string, kind: string): BuiltinKind | undefined {
  return builtinKinds.find((b) => b.kind === kind && b.version === version && (b.group === group || (b.apiGroup === group && group !== '')));
}

/** True when `group` names a built-in API group (`core`, `apps`, `batch`, `networking.k8s.io`, …). */
export function isBuiltinGroup(group: string): boolean {
  return builtinKinds.some((b) => b.group === group || (b.apiGroup === group && group !== ''));
}

/** True for a resource PROJECT records as a built-in kind (kubebuilder's `path` of a core type). */
export function isBuiltinPath(path: string | undefined): boolean {
  return path !== undefined && path.startsWith('k8s.io/');
}

/** True for a kind another project defines: built-in, or external (kubebuilder's `external: true`). */
export function isForeignKind(resource: { path?: string; extra: Record<string, unknown> }): boolean {
  return isBuiltinPath(resource.path) || resource.extra.external === true;
}
