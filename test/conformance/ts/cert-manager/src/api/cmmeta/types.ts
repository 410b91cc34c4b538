/*
Copyright 2020 The cert-manager Authors.

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

// TypeScript twin of cert-manager's pkg/apis/meta/v1/types.go, translated for the conformance suite (constants left out).

// ConditionStatus represents a condition's status.
// +kubebuilder:validation:Enum=True;False;Unknown
export type ConditionStatus = string;

// A reference to an object in the same namespace as the referent.
// If the referent is a cluster-scoped resource (e.g., a ClusterIssuer),
// the reference instead refers to the resource with the given name in the
// configured 'cluster resource namespace', which is set as a flag on the
// controller component (and defaults to the namespace that cert-manager
// runs in).
export interface LocalObjectReference {
  // Name of the resource being referred to.
  // More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names
  name: string;
}

// IssuerReference is a reference to a certificate issuer object with a given name, kind and group.
export interface IssuerReference {
  // Name of the issuer being referred to.
  name: string;
  // Kind of the issuer being referred to.
  // Defaults to 'Issuer'.
  // +optional
  kind?: string;
  // Group of the issuer being referred to.
  // Defaults to 'cert-manager.io'.
  // +optional
  group?: string;
}

// A reference to a specific 'key' within a Secret resource.
// In some instances, `key` is a required field.
export interface SecretKeySelector extends LocalObjectReference {
  // The key of the entry in the Secret resource's `data` field to be used.
  // Some instances of this field may be defaulted, in others it may be
  // required.
  // +optional
  key?: string;
}
