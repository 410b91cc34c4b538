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

import { defineKind, type Condition, type int32, type List, type ObjectMeta } from '@opgen/runtime/api';
import { groupVersion } from './groupversion_info.js';

/** OvhNginxSpec is the nginx server an OvhNginx asks for. */
export interface OvhNginxSpec {
  /**
   * Number of nginx Pods.
   * @minimum 1
   */
  replicaCount: int32;
  /**
   * Port nginx listens on and the LoadBalancer Service exposes.
   * @minimum 1
   * @maximum 65535
   */
  port: int32;
}

/** OvhNginxStatus is the observed state of an OvhNginx. */
export interface OvhNginxStatus {
  /**
   * conditions say how the OvhNginx is doing; "Ready" once its Deployment and Service match the spec.
   * +listType=map
   * +listMapKey=type
   */
  conditions?: Condition[];
}

/**
 * OvhNginx runs an nginx Deployment behind a LoadBalancer Service.
 * +kubebuilder:object:root=true
 * +kubebuilder:subresource:status
 * +kubebuilder:storageversion
 * +kubebuilder:printcolumn:name="Replicas",type=integer,JSONPath=`.spec.replicaCount`
 * +kubebuilder:printcolumn:name="Port",type=integer,JSONPath=`.spec.port`
 * +kubebuilder:printcolumn:name="Ready",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`
 * +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
 */
export interface OvhNginx {
  /** The versioned schema of this object: tutorials.ovhcloud.com/v1. */
  apiVersion?: string;
  /** The kind of this object: OvhNginx. */
  kind?: string;
  metadata?: ObjectMeta;
  spec: OvhNginxSpec;
  status?: OvhNginxStatus;
}

/**
 * OvhNginxList is a list of OvhNginx objects.
 * +kubebuilder:object:root=true
 */
export interface OvhNginxList extends List<OvhNginx> {}

/** The run-time handle of OvhNginx: what the client, the cache and controllers take. */
export const OvhNginx = defineKind<OvhNginx, true>({ ...groupVersion, kind: 'OvhNginx', plural: 'ovhnginxes', namespaced: true });
