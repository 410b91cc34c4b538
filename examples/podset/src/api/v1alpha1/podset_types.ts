/*
Copyright 2026.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

import { defineKind, type int32, type List, type ObjectMeta } from '@opgen/runtime/api';
import { groupVersion } from './groupversion_info.js';

/** PodSetSpec says how many Pods a PodSet keeps. */
export interface PodSetSpec {
  /**
   * replicas is the number of Pods to keep running.
   * @minimum 0
   */
  replicas: int32;
}

/** PodSetStatus is what the operator last saw of a PodSet's Pods. */
export interface PodSetStatus {
  /** podNames are the names of the PodSet's pending and running Pods. */
  podNames?: string[];
  /** readyReplicas is the number of those Pods that are ready. */
  readyReplicas?: int32;
}

/**
 * PodSet keeps a number of busybox Pods running, like a small ReplicaSet.
 * +kubebuilder:object:root=true
 * +kubebuilder:subresource:status
 * +kubebuilder:subresource:scale:specpath=.spec.replicas,statuspath=.status.readyReplicas
 * +kubebuilder:storageversion
 * +kubebuilder:printcolumn:name=Desired,type=integer,JSONPath=`.spec.replicas`
 * +kubebuilder:printcolumn:name=Ready,type=integer,JSONPath=`.status.readyReplicas`
 * +kubebuilder:printcolumn:name=Age,type=date,JSONPath=`.metadata.creationTimestamp`
 */
export interface PodSet {
  /** The versioned schema of this object: app.example.com/v1alpha1. */
  apiVersion?: string;
  /** The kind of this object: PodSet. */
  kind?: string;
  metadata?: ObjectMeta;
  spec: PodSetSpec;
  status?: PodSetStatus;
}

/**
 * PodSetList is a list of PodSet objects.
 * +kubebuilder:object:root=true
 */
export interface PodSetList extends List<PodSet> {}

/** The run-time handle of PodSet: what the client, the cache and controllers take. */
export const PodSet = defineKind<PodSet, true>({ ...groupVersion, kind: 'PodSet', plural: 'podsets', namespaced: true });
