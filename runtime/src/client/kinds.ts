/**
 * Run-time handles of the built-in kinds operators use, each paired with its object type
 * of the same name: the very types `@opgen/runtime/api` exports (generated from the
 * Kubernetes OpenAPI schemas, JSON-shaped), so a CRD's embedded `PodTemplateSpec` goes
 * into a `kinds.Deployment` as it is:
 *
 * @example
 * import { kinds } from '@opgen/runtime';
 * const pvc: kinds.PersistentVolumeClaim | undefined = await client.get(kinds.PersistentVolumeClaim, 'data', 'default');
 *
 * @module
 */
import type * as api from '../api/kubernetes.js';
import { defineKind } from '../api/kind.js';

/** `v1` Pod. */
export type Pod = api.Pod;
export const Pod = defineKind<Pod, true>({ group: '', version: 'v1', kind: 'Pod', plural: 'pods', namespaced: true });

/** `v1` Service. */
export type Service = api.Service;
export const Service = defineKind<Service, true>({ group: '', version: 'v1', kind: 'Service', plural: 'services', namespaced: true });

/** `v1` ConfigMap. */
export type ConfigMap = api.ConfigMap;
export const ConfigMap = defineKind<ConfigMap, true>({ group: '', version: 'v1', kind: 'ConfigMap', plural: 'configmaps', namespaced: true });

/** `v1` Secret. */
export type Secret = api.Secret;
export const Secret = defineKind<Secret, true>({ group: '', version: 'v1', kind: 'Secret', plural: 'secrets', namespaced: true });

/** `v1` PersistentVolumeClaim. */
export type PersistentVolumeClaim = api.PersistentVolumeClaim;
export const PersistentVolumeClaim = defineKind<PersistentVolumeClaim, true>({ group: '', version: 'v1', kind: 'PersistentVolumeClaim', plural: 'persistentvolumeclaims', namespaced: true });

/** `v1` PersistentVolume. */
export type PersistentVolume = api.PersistentVolume;
export const PersistentVolume = defineKind<PersistentVolume, false>({ group: '', version: 'v1', kind: 'PersistentVolume', plural: 'persistentvolumes', namespaced: false });

/** `v1` ServiceAccount. */
export type ServiceAccount = api.ServiceAccount;
export const ServiceAccount = defineKind<ServiceAccount, true>({ group: '', version: 'v1', kind: 'ServiceAccount', plural: 'serviceaccounts', namespaced: true });

/** `v1` Namespace. */
export type Namespace = api.Namespace;
export const Namespace = defineKind<Namespace, false>({ group: '', version: 'v1', kind: 'Namespace', plural: 'namespaces', namespaced: false });

/** `v1` Node. */
export type Node = api.Node;
export const Node = defineKind<Node, false>({ group: '', version: 'v1', kind: 'Node', plural: 'nodes', namespaced: false });

/** `apps/v1` Deployment. */
export type Deployment = api.Deployment;
export const Deployment = defineKind<Deployment, true>({ group: 'apps', version: 'v1', kind: 'Deployment', plural: 'deployments', namespaced: true });

/** `apps/v1` StatefulSet. */
export type StatefulSet = api.StatefulSet;
export const StatefulSet = defineKind<StatefulSet, true>({ group: 'apps', version: 'v1', kind: 'StatefulSet', plural: 'statefulsets', namespaced: true });

/** `apps/v1` DaemonSet. */
export type DaemonSet = api.DaemonSet;
export const DaemonSet = defineKind<DaemonSet, true>({ group: 'apps', version: 'v1', kind: 'DaemonSet', plural: 'daemonsets', namespaced: true });

/** `apps/v1` ReplicaSet. */
export type ReplicaSet = api.ReplicaSet;
export const ReplicaSet = defineKind<ReplicaSet, true>({ group: 'apps', version: 'v1', kind: 'ReplicaSet', plural: 'replicasets', namespaced: true });

/** `batch/v1` Job. */
export type Job = api.Job;
export const Job = defineKind<Job, true>({ group: 'batch', version: 'v1', kind: 'Job', plural: 'jobs', namespaced: true });

/** `batch/v1` CronJob. */
export type CronJob = api.CronJob;
export const CronJob = defineKind<CronJob, true>({ group: 'batch', version: 'v1', kind: 'CronJob', plural: 'cronjobs', namespaced: true });

/** `coordination.k8s.io/v1` Lease. */
export type Lease = api.Lease;
export const Lease = defineKind<Lease, true>({ group: 'coordination.k8s.io', version: 'v1', kind: 'Lease', plural: 'leases', namespaced: true });

/** `events.k8s.io/v1` Event (events.k8s.io/v1, the API the events recorder writes). */
export type Event = api.Event;
export const Event = defineKind<Event, true>({ group: 'events.k8s.io', version: 'v1', kind: 'Event', plural: 'events', namespaced: true });

/** `networking.k8s.io/v1` Ingress. */
export type Ingress = api.Ingress;
export const Ingress = defineKind<Ingress, true>({ group: 'networking.k8s.io', version: 'v1', kind: 'Ingress', plural: 'ingresses', namespaced: true });

/** `networking.k8s.io/v1` NetworkPolicy. */
export type NetworkPolicy = api.NetworkPolicy;
export const NetworkPolicy = defineKind<NetworkPolicy, true>({ group: 'networking.k8s.io', version: 'v1', kind: 'NetworkPolicy', plural: 'networkpolicies', namespaced: true });

/** `discovery.k8s.io/v1` EndpointSlice. */
export type EndpointSlice = api.EndpointSlice;
export const EndpointSlice = defineKind<EndpointSlice, true>({ group: 'discovery.k8s.io', version: 'v1', kind: 'EndpointSlice', plural: 'endpointslices', namespaced: true });

/** `rbac.authorization.k8s.io/v1` Role. */
export type Role = api.Role;
export const Role = defineKind<Role, true>({ group: 'rbac.authorization.k8s.io', version: 'v1', kind: 'Role', plural: 'roles', namespaced: true });

/** `rbac.authorization.k8s.io/v1` RoleBinding. */
export type RoleBinding = api.RoleBinding;
export const RoleBinding = defineKind<RoleBinding, true>({ group: 'rbac.authorization.k8s.io', version: 'v1', kind: 'RoleBinding', plural: 'rolebindings', namespaced: true });

/** `rbac.authorization.k8s.io/v1` ClusterRole. */
export type ClusterRole = api.ClusterRole;
export const ClusterRole = defineKind<ClusterRole, false>({ group: 'rbac.authorization.k8s.io', version: 'v1', kind: 'ClusterRole', plural: 'clusterroles', namespaced: false });

/** `rbac.authorization.k8s.io/v1` ClusterRoleBinding. */
export type ClusterRoleBinding = api.ClusterRoleBinding;
export const ClusterRoleBinding = defineKind<ClusterRoleBinding, false>({ group: 'rbac.authorization.k8s.io', version: 'v1', kind: 'ClusterRoleBinding', plural: 'clusterrolebindings', namespaced: false });

/** `policy/v1` PodDisruptionBudget. */
export type PodDisruptionBudget = api.PodDisruptionBudget;
export const PodDisruptionBudget = defineKind<PodDisruptionBudget, true>({ group: 'policy', version: 'v1', kind: 'PodDisruptionBudget', plural: 'poddisruptionbudgets', namespaced: true });

/** `autoscaling/v2` HorizontalPodAutoscaler (autoscaling/v2). */
export type HorizontalPodAutoscaler = api.HorizontalPodAutoscaler;
export const HorizontalPodAutoscaler = defineKind<HorizontalPodAutoscaler, true>({ group: 'autoscaling', version: 'v2', kind: 'HorizontalPodAutoscaler', plural: 'horizontalpodautoscalers', namespaced: true });

/** `apiextensions.k8s.io/v1` CustomResourceDefinition. */
export type CustomResourceDefinition = api.CustomResourceDefinition;
export const CustomResourceDefinition = defineKind<CustomResourceDefinition, false>({ group: 'apiextensions.k8s.io', version: 'v1', kind: 'CustomResourceDefinition', plural: 'customresourcedefinitions', namespaced: false });
