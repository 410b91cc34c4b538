package v3

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Gadget in a version the CRD leaves out.
// +kubebuilder:object:root=true
// +kubebuilder:resource:shortName=gd;gad,categories=all;shop,singular=gadget
// +kubebuilder:skipversion
type Gadget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Anything.
	Spec map[string]string `json:"spec"`
}

// GadgetList is a list of Gadgets.
// +kubebuilder:object:root=true
type GadgetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Gadget `json:"items"`
}
