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

import { defineKind, type List, type ObjectMeta } from '@opgen/runtime/api';
import { groupVersion } from './groupversion_info.js';

/** EchoSpec is what an Echo prints. */
export interface EchoSpec {
  /**
   * message is printed once, by a Job that runs `echo <message>`. It cannot change: the
   * Job has run already; create another Echo to print something else.
   * +kubebuilder:validation:XValidation:rule="self == oldSelf",message="message is immutable: create another Echo"
   */
  message: string;
}

/**
 * Echo prints its message once, in a Job of the same name.
 * +kubebuilder:object:root=true
 * +kubebuilder:resource:path=echos,shortName=ec
 * +kubebuilder:printcolumn:name="Message",type=string,JSONPath=".spec.message"
 * +kubebuilder:printcolumn:name="Age",type=date,JSONPath=".metadata.creationTimestamp"
 * +kubebuilder:validation:XValidation:rule="self.metadata.name.size() <= 63",message="an Echo's name is its Job's name: at most 63 characters"
 */
export interface Echo {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec: EchoSpec;
}

/**
 * EchoList is a list of Echo objects.
 * +kubebuilder:object:root=true
 */
export interface EchoList extends List<Echo> {}

/** The run-time handle of Echo: what the client, the cache and controllers take. */
export const Echo = defineKind<Echo, true>({ ...groupVersion, kind: 'Echo', plural: 'echos', namespaced: true });
