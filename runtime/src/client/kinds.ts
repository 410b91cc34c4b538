/**
 * Run-time handles of the built-in kinds operators use, each paired with its object type
 * of the same name: the very types `@opgen/runtime/api` exports (generated from the
 * Kubernetes OpenAPI schemas, JSON-shaped), so a CRD's embedded `PodTemplateSpec` goes
 * into a `kinds.Deployment` as it is:
 *
 * @example
 * import { kinds } from '@opgen/runtime';
 * const pvc: kinds.PersistentVolumeClaim | undefined = await client.get(
 *   kinds.PersistentVolumeClaim,
 *   'data',
 *   'default',
 * );
 *
 * @module
 */
import type * as api from '../api/kubernetes.js';
import { defineKind } from '../api/kind.js';

/** `v1` Pod. */
export type Pod = api.Pod;
/** Handle of `v1` Pod for the client, caches and controllers. */
export const Pod = defineKind<Pod, true>({ group: '', version: 'v1', kind: 'Pod', plural: 'pods', namespaced: true });

/** `v1` Service. */
export type Service = api.Service;
/** Handle of `v1` Service for the client, caches and controllers. */
export const Service = defineKind<Service, true>({ group: '', version: 'v1', kind: 'Service', plural: 'services', namespaced: true });

/** `v1` ConfigMap. */
export type ConfigMap = api.ConfigMap;
/** Handle of `v1` ConfigMap for the client, caches and controllers. */
export const ConfigMap = defineKind<ConfigMap, true>({ group: '', version: 'v1', kind: 'ConfigMap', plural: 'configmaps', namespaced: true });

/** `v1` Secret. */
export type Secret = api.Secret;
/** Handle of `v1` Secret for the client, caches and controllers. */
export const Secret = defineKind<Secret, true>({ group: '', version: 'v1', kind: 'Secret', plural: 'secrets', namespaced: true });

/** `v1` PersistentVolumeClaim. */
export type PersistentVolumeClaim = api.PersistentVolumeClaim;
/** Handle of `v1` PersistentVolumeClaim for the client, caches and controllers. */
export const PersistentVolumeClaim = defineKind<PersistentVolumeClaim, true>({ group: '', version: 'v1', kind: 'PersistentVolumeClaim', plural: 'persistentvolumeclaims', namespaced: true });

/** `v1` PersistentVolume. */
export type PersistentVolume = api.PersistentVolume;
/** Handle of `v1` PersistentVolume for the client, caches and controllers. */
export const PersistentVolume = defineKind<PersistentVolume, false>({ group: '', version: 'v1', kind: 'PersistentVolume', plural: 'persistentvolumes', namespaced: false });

/** `v1` ServiceAccount. */
export type ServiceAccount = api.ServiceAccount;
/** Handle of `v1` ServiceAccount for the client, caches and controllers. */
export const ServiceAccount = defineKind<ServiceAccount, true>({ group: '', version: 'v1', kind: 'ServiceAccount', plural: 'serviceaccounts', namespaced: true });

/** `v1` Namespace. */
export type Namespace = api.Namespace;
/** Handle of `v1` Namespace for the client, caches and controllers. */
export const Namespace = defineKind<Namespace, false>({ group: '', version: 'v1', kind: 'Namespace', plural: 'namespaces', namespaced: false });

/** `v1` Node. */
export type Node = api.Node;
/** Handle of `v1` Node for the client, caches and controllers. */
export const Node = defineKind<Node, false>({ group: '', version: 'v1', kind: 'Node', plural: 'nodes', namespaced: false });

/** `apps/v1` Deployment. */
export type Deployment = api.Deployment;
/** Handle of `apps/v1` Deployment for the client, caches and controllers. */
export const Deployment = defineKind<Deployment, true>({ group: 'apps', version: 'v1', kind: 'Deployment', plural: 'deployments', namespaced: true });

/** `apps/v1` StatefulSet. */
export type StatefulSet = api.StatefulSet;
/** Handle of `apps/v1` StatefulSet for the client, caches and controllers. */
export const StatefulSet = defineKind<StatefulSet, true>({ group: 'apps', version: 'v1', kind: 'StatefulSet', plural: 'statefulsets', namespaced: true });

/** `apps/v1` DaemonSet. */
export type DaemonSet = api.DaemonSet;
/** Handle of `apps/v1` DaemonSet for the client, caches and controllers. */
export const DaemonSet = defineKind<DaemonSet, true>({ group: 'apps', version: 'v1', kind: 'DaemonSet', plural: 'daemonsets', namespaced: true });

/** `apps/v1` ReplicaSet. */
export type ReplicaSet = api.ReplicaSet;
/** Handle of `apps/v1` ReplicaSet for the client, caches and controllers. */
export const ReplicaSet = defineKind<ReplicaSet, true>({ group: 'apps', version: 'v1', kind: 'ReplicaSet', plural: 'replicasets', namespaced: true });

/** `batch/v1` Job. */
export type Job = api.Job;
/** Handle of `batch/v1` Job for the client, caches and controllers. */
export const Job = defineKind<Job, true>({ group: 'batch', version: 'v1', kind: 'Job', plural: 'jobs', namespaced: true });

/** `batch/v1` CronJob. */
export type CronJob = api.CronJob;
/** Handle of `batch/v1` CronJob for the client, caches and controllers. */
export const CronJob = defineKind<CronJob, true>({ group: 'batch', version: 'v1', kind: 'CronJob', plural: 'cronjobs', namespaced: true });

/** `coordination.k8s.io/v1` Lease. */
export type Lease = api.Lease;
/** Handle of `coordination.k8s.io/v1` Lease for the client, caches and controllers. */
export const Lease = defineKind<Lease, true>({ group: 'coordination.k8s.io', version: 'v1', kind: 'Lease', plural: 'leases', namespaced: true });

/** `events.k8s.io/v1` Event (events.k8s.io/v1, the API the events recorder writes). */
export type Event = api.Event;
/** Handle of `events.k8s.io/v1` Event for the client, caches and controllers. */
export const Event = defineKind<Event, true>({ group: 'events.k8s.io', version: 'v1', kind: 'Event', plural: 'events', namespaced: true });

/** `networking.k8s.io/v1` Ingress. */
export type Ingress = api.Ingress;
/** Handle of `networking.k8s.io/v1` Ingress for the client, caches and controllers. */
export const Ingress = defineKind<Ingress, true>({ group: 'networking.k8s.io', version: 'v1', kind: 'Ingress', plural: 'ingresses', namespaced: true });

/** `networking.k8s.io/v1` NetworkPolicy. */
export type NetworkPolicy = api.NetworkPolicy;
/** Handle of `networking.k8s.io/v1` NetworkPolicy for the client, caches and controllers. */
export const NetworkPolicy = defineKind<NetworkPolicy, true>({ group: 'networking.k8s.io', version: 'v1', kind: 'NetworkPolicy', plural: 'networkpolicies', namespaced: true });

/** `discovery.k8s.io/v1` EndpointSlice. */
export type EndpointSlice = api.EndpointSlice;
/** Handle of `discovery.k8s.io/v1` EndpointSlice for the client, caches and controllers. */
export const EndpointSlice = defineKind<EndpointSlice, true>({ group: 'discovery.k8s.io', version: 'v1', kind: 'EndpointSlice', plural: 'endpointslices', namespaced: true });

/** `rbac.authorization.k8s.io/v1` Role. */
export type Role = api.Role;
/** Handle of `rbac.authorization.k8s.io/v1` Role for the client, caches and controllers. */
export const Role = defineKind<Role, true>({ group: 'rbac.authorization.k8s.io', version: 'v1', kind: 'Role', plural: 'roles', namespaced: true });

/** `rbac.authorization.k8s.io/v1` RoleBinding. */
export type RoleBinding = api.RoleBinding;
/** Handle of `rbac.authorization.k8s.io/v1` RoleBinding for the client, caches and controllers. */
export const RoleBinding = defineKind<RoleBinding, true>({ group: 'rbac.authorization.k8s.io', version: 'v1', kind: 'RoleBinding', plural: 'rolebindings', namespaced: true });

/** `rbac.authorization.k8s.io/v1` ClusterRole. */
export type ClusterRole = api.ClusterRole;
/** Handle of `rbac.authorization.k8s.io/v1` ClusterRole for the client, caches and controllers. */
export const ClusterRole = defineKind<ClusterRole, false>({ group: 'rbac.authorization.k8s.io', version: 'v1', kind: 'ClusterRole', plural: 'clusterroles', namespaced: false });

/** `rbac.authorization.k8s.io/v1` ClusterRoleBinding. */
export type ClusterRoleBinding = api.ClusterRoleBinding;
/** Handle of `rbac.authorization.k8s.io/v1` ClusterRoleBinding for the client, caches and controllers. */
export const ClusterRoleBinding = defineKind<ClusterRoleBinding, false>({ group: 'rbac.authorization.k8s.io', version: 'v1', kind: 'ClusterRoleBinding', plural: 'clusterrolebindings', namespaced: false });

/** `policy/v1` PodDisruptionBudget. */
export type PodDisruptionBudget = api.PodDisruptionBudget;
/** Handle of `policy/v1` PodDisruptionBudget for the client, caches and controllers. */
export const PodDisruptionBudget = defineKind<PodDisruptionBudget, true>({ group: 'policy', version: 'v1', kind: 'PodDisruptionBudget', plural: 'poddisruptionbudgets', namespaced: true });

/** `autoscaling/v2` HorizontalPodAutoscaler (autoscaling/v2). */
export type HorizontalPodAutoscaler = api.HorizontalPodAutoscaler;
/** Handle of `autoscaling/v2` HorizontalPodAutoscaler for the client, caches and controllers. */
export const HorizontalPodAutoscaler = defineKind<HorizontalPodAutoscaler, true>({ group: 'autoscaling', version: 'v2', kind: 'HorizontalPodAutoscaler', plural: 'horizontalpodautoscalers', namespaced: true });

/** `apiextensions.k8s.io/v1` CustomResourceDefinition. */
export type CustomResourceDefinition = api.CustomResourceDefinition;
/** Handle of `apiextensions.k8s.io/v1` CustomResourceDefinition for the client, caches and controllers. */
export const CustomResourceDefinition = defineKind<CustomResourceDefinition, false>({ group: 'apiextensions.k8s.io', version: 'v1', kind: 'CustomResourceDefinition', plural: 'customresourcedefinitions', namespaced: false });
