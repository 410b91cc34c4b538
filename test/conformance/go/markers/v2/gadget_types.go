package v2

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// GadgetSpec is the desired state of a Gadget in v2.
type GadgetSpec struct {
	// Display name.
	DisplayName string `json:"displayName"`
}

// Gadget in its next version, deprecated before it ships.
// +kubebuilder:object:root=true
// +kubebuilder:resource:shortName=gd;gad,categories=all;shop,singular=gadget
// +kubebuilder:deprecatedversion:warning="markers.conformance.opgen.dev/v2 Gadget is an experiment"
type Gadget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec GadgetSpec `json:"spec"`
}

// GadgetList is a list of Gadgets.
// +kubebuilder:object:root=true
type GadgetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Gadget `json:"items"`
}

// Cog in v2, not served yet.
// +kubebuilder:object:root=true
// +kubebuilder:unservedversion
// +kubebuilder:resource:scope=Cluster,path=cogwheels
type Cog struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Teeth of the cog.
	Teeth int32 `json:"teeth"`
}

// CogList is a list of Cogs.
// +kubebuilder:object:root=true
type CogList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Cog `json:"items"`
}
