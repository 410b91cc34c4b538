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

/** DemoVolumeSpec is the volume a user asks for. */
export interface DemoVolumeSpec {
  /**
   * name of the volume, reported back in status.name.
   * @minLength 1
   * @maxLength 63
   */
  name: string;
  /**
   * size of the volume in GiB: the storage its PersistentVolumeClaim requests.
   * @minimum 1
   */
  size: int32;
}

/** DemoVolumeStatus is what the operator last saw of a DemoVolume. */
export interface DemoVolumeStatus {
  /** name is spec.name, copied once the operator has acted on it. */
  name?: string;
  /**
   * conditions: "Ready" is True once the PersistentVolumeClaim is bound; its reason is the claim's phase.
   * +listType=map
   * +listMapKey=type
   */
  conditions?: Condition[];
}

/**
 * DemoVolume is a volume backed by a PersistentVolumeClaim of the same name.
 * +kubebuilder:object:root=true
 * +kubebuilder:subresource:status
 * +kubebuilder:storageversion
 * +kubebuilder:printcolumn:name=Size,type=integer,JSONPath=`.spec.size`,description="Size in GiB"
 * +kubebuilder:printcolumn:name=PVC,type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].reason`,description="Phase of the PersistentVolumeClaim"
 * +kubebuilder:printcolumn:name=Age,type=date,JSONPath=`.metadata.creationTimestamp`
 */
export interface DemoVolume {
  /** The versioned schema of this object: storage.civo.com/v1. */
  apiVersion?: string;
  /** The kind of this object: DemoVolume. */
  kind?: string;
  metadata?: ObjectMeta;
  spec: DemoVolumeSpec;
  status?: DemoVolumeStatus;
}

/**
 * DemoVolumeList is a list of DemoVolume objects.
 * +kubebuilder:object:root=true
 */
export interface DemoVolumeList extends List<DemoVolume> {}

/** The run-time handle of DemoVolume: what the client, the cache and controllers take. */
export const DemoVolume = defineKind<DemoVolume, true>({ ...groupVersion, kind: 'DemoVolume', plural: 'demovolumes', namespaced: true });
