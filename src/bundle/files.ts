import type { KubeObject } from './objects.js';

/**
 * The file name of an object in bundle/manifests, as operator-sdk names them: a CRD as
 * `<group>_<plural>.yaml`, anything else as `<name>_<group>_<version>_<kind>.yaml`
 * (`podset-metrics-reader_rbac.authorization.k8s.io_v1_clusterrole.yaml`).
 */
export function manifestFileName(object: KubeObject): string {
  if (object.kind === 'CustomResourceDefinition') {
    const spec = object.spec as { group: string; names: { plural: string } };
    return `${spec.group}_${spec.names.plural}.yaml`;
  }
  return `${object.metadata.name}_${object.apiVersion.replace('/', '_')}_${object.kind.toLowerCase()}.yaml`;
}

/**
 * The kinds a registry+v1 bundle may carry besides the CSV and CRDs: what OLM knows how to
 * install (operator-registry's list).
 */
export const supportedKinds = new Set([
  'ClusterRole',
  'ClusterRoleBinding',
  'ConfigMap',
  'ConsoleCLIDownload',
  'ConsoleLink',
  'ConsoleQuickStart',
  'ConsoleYAMLSample',
  'NetworkPolicy',
  'PodDisruptionBudget',
  'PriorityClass',
  'PrometheusRule',
  'Role',
  'RoleBinding',
  'Secret',
  'Service',
  'ServiceAccount',
  'ServiceMonitor',
  'VerticalPodAutoscaler',
]);
