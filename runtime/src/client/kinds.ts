/**
 * Run-time handles of the built-in kinds operators use, each paired with its object type
 * of the same name (the client-node model in its JSON shape, see {@link AsJson}):
 *
 * @example
 * import { kinds } from '@opgen/runtime';
 * const pvc: kinds.PersistentVolumeClaim | undefined = await client.get(kinds.PersistentVolumeClaim, 'data', 'default');
 *
 * @module
 */
import type {
  EventsV1Event,
  V1ClusterRole,
  V1ClusterRoleBinding,
  V1ConfigMap,
  V1CronJob,
  V1CustomResourceDefinition,
  V1DaemonSet,
  V1Deployment,
  V1EndpointSlice,
  V1Ingress,
  V1Job,
  V1Lease,
  V1Namespace,
  V1NetworkPolicy,
  V1Node,
  V1PersistentVolume,
  V1PersistentVolumeClaim,
  V1Pod,
  V1PodDisruptionBudget,
  V1ReplicaSet,
  V1Role,
  V1RoleBinding,
  V1Secret,
  V1Service,
  V1ServiceAccount,
  V1StatefulSet,
  V2HorizontalPodAutoscaler,
} from '@kubernetes/client-node';
import { defineKind } from '../api/kind.js';
import type { AsJson } from './wire.js';

/** `v1` Pod. */
export type Pod = AsJson<V1Pod>;
export const Pod = defineKind<Pod>({ group: '', version: 'v1', kind: 'Pod', plural: 'pods', namespaced: true });

/** `v1` Service. */
export type Service = AsJson<V1Service>;
export const Service = defineKind<Service>({ group: '', version: 'v1', kind: 'Service', plural: 'services', namespaced: true });

/** `v1` ConfigMap. */
export type ConfigMap = AsJson<V1ConfigMap>;
export const ConfigMap = defineKind<ConfigMap>({ group: '', version: 'v1', kind: 'ConfigMap', plural: 'configmaps', namespaced: true });

/** `v1` Secret. */
export type Secret = AsJson<V1Secret>;
export const Secret = defineKind<Secret>({ group: '', version: 'v1', kind: 'Secret', plural: 'secrets', namespaced: true });

/** `v1` PersistentVolumeClaim. */
export type PersistentVolumeClaim = AsJson<V1PersistentVolumeClaim>;
export const PersistentVolumeClaim = defineKind<PersistentVolumeClaim>({ group: '', version: 'v1', kind: 'PersistentVolumeClaim', plural: 'persistentvolumeclaims', namespaced: true });

/** `v1` PersistentVolume. */
export type PersistentVolume = AsJson<V1PersistentVolume>;
export const PersistentVolume = defineKind<PersistentVolume>({ group: '', version: 'v1', kind: 'PersistentVolume', plural: 'persistentvolumes', namespaced: false });

/** `v1` ServiceAccount. */
export type ServiceAccount = AsJson<V1ServiceAccount>;
export const ServiceAccount = defineKind<ServiceAccount>({ group: '', version: 'v1', kind: 'ServiceAccount', plural: 'serviceaccounts', namespaced: true });

/** `v1` Namespace. */
export type Namespace = AsJson<V1Namespace>;
export const Namespace = defineKind<Namespace>({ group: '', version: 'v1', kind: 'Namespace', plural: 'namespaces', namespaced: false });

/** `v1` Node. */
export type Node = AsJson<V1Node>;
export const Node = defineKind<Node>({ group: '', version: 'v1', kind: 'Node', plural: 'nodes', namespaced: false });

/** `apps/v1` Deployment. */
export type Deployment = AsJson<V1Deployment>;
export const Deployment = defineKind<Deployment>({ group: 'apps', version: 'v1', kind: 'Deployment', plural: 'deployments', namespaced: true });

/** `apps/v1` StatefulSet. */
export type StatefulSet = AsJson<V1StatefulSet>;
export const StatefulSet = defineKind<StatefulSet>({ group: 'apps', version: 'v1', kind: 'StatefulSet', plural: 'statefulsets', namespaced: true });

/** `apps/v1` DaemonSet. */
export type DaemonSet = AsJson<V1DaemonSet>;
export const DaemonSet = defineKind<DaemonSet>({ group: 'apps', version: 'v1', kind: 'DaemonSet', plural: 'daemonsets', namespaced: true });

/** `apps/v1` ReplicaSet. */
export type ReplicaSet = AsJson<V1ReplicaSet>;
export const ReplicaSet = defineKind<ReplicaSet>({ group: 'apps', version: 'v1', kind: 'ReplicaSet', plural: 'replicasets', namespaced: true });

/** `batch/v1` Job. */
export type Job = AsJson<V1Job>;
export const Job = defineKind<Job>({ group: 'batch', version: 'v1', kind: 'Job', plural: 'jobs', namespaced: true });

/** `batch/v1` CronJob. */
export type CronJob = AsJson<V1CronJob>;
export const CronJob = defineKind<CronJob>({ group: 'batch', version: 'v1', kind: 'CronJob', plural: 'cronjobs', namespaced: true });

/** `coordination.k8s.io/v1` Lease. */
export type Lease = AsJson<V1Lease>;
export const Lease = defineKind<Lease>({ group: 'coordination.k8s.io', version: 'v1', kind: 'Lease', plural: 'leases', namespaced: true });

/** `events.k8s.io/v1` Event (events.k8s.io/v1, the API the events recorder writes). */
export type Event = AsJson<EventsV1Event>;
export const Event = defineKind<Event>({ group: 'events.k8s.io', version: 'v1', kind: 'Event', plural: 'events', namespaced: true });

/** `networking.k8s.io/v1` Ingress. */
export type Ingress = AsJson<V1Ingress>;
export const Ingress = defineKind<Ingress>({ group: 'networking.k8s.io', version: 'v1', kind: 'Ingress', plural: 'ingresses', namespaced: true });

/** `networking.k8s.io/v1` NetworkPolicy. */
export type NetworkPolicy = AsJson<V1NetworkPolicy>;
export const NetworkPolicy = defineKind<NetworkPolicy>({ group: 'networking.k8s.io', version: 'v1', kind: 'NetworkPolicy', plural: 'networkpolicies', namespaced: true });

/** `discovery.k8s.io/v1` EndpointSlice. */
export type EndpointSlice = AsJson<V1EndpointSlice>;
export const EndpointSlice = defineKind<EndpointSlice>({ group: 'discovery.k8s.io', version: 'v1', kind: 'EndpointSlice', plural: 'endpointslices', namespaced: true });

/** `rbac.authorization.k8s.io/v1` Role. */
export type Role = AsJson<V1Role>;
export const Role = defineKind<Role>({ group: 'rbac.authorization.k8s.io', version: 'v1', kind: 'Role', plural: 'roles', namespaced: true });

/** `rbac.authorization.k8s.io/v1` RoleBinding. */
export type RoleBinding = AsJson<V1RoleBinding>;
export const RoleBinding = defineKind<RoleBinding>({ group: 'rbac.authorization.k8s.io', version: 'v1', kind: 'RoleBinding', plural: 'rolebindings', namespaced: true });

/** `rbac.authorization.k8s.io/v1` ClusterRole. */
export type ClusterRole = AsJson<V1ClusterRole>;
export const ClusterRole = defineKind<ClusterRole>({ group: 'rbac.authorization.k8s.io', version: 'v1', kind: 'ClusterRole', plural: 'clusterroles', namespaced: false });

/** `rbac.authorization.k8s.io/v1` ClusterRoleBinding. */
export type ClusterRoleBinding = AsJson<V1ClusterRoleBinding>;
export const ClusterRoleBinding = defineKind<ClusterRoleBinding>({ group: 'rbac.authorization.k8s.io', version: 'v1', kind: 'ClusterRoleBinding', plural: 'clusterrolebindings', namespaced: false });

/** `policy/v1` PodDisruptionBudget. */
export type PodDisruptionBudget = AsJson<V1PodDisruptionBudget>;
export const PodDisruptionBudget = defineKind<PodDisruptionBudget>({ group: 'policy', version: 'v1', kind: 'PodDisruptionBudget', plural: 'poddisruptionbudgets', namespaced: true });

/** `autoscaling/v2` HorizontalPodAutoscaler (autoscaling/v2). */
export type HorizontalPodAutoscaler = AsJson<V2HorizontalPodAutoscaler>;
export const HorizontalPodAutoscaler = defineKind<HorizontalPodAutoscaler>({ group: 'autoscaling', version: 'v2', kind: 'HorizontalPodAutoscaler', plural: 'horizontalpodautoscalers', namespaced: true });

/** `apiextensions.k8s.io/v1` CustomResourceDefinition. */
export type CustomResourceDefinition = AsJson<V1CustomResourceDefinition>;
export const CustomResourceDefinition = defineKind<CustomResourceDefinition>({ group: 'apiextensions.k8s.io', version: 'v1', kind: 'CustomResourceDefinition', plural: 'customresourcedefinitions', namespaced: false });
