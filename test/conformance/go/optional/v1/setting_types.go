package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// SettingSpec is the desired state of a Setting.
type SettingSpec struct {
	// Name of the setting, optional by the package's default.
	Name string `json:"name"`

	// Value of the setting, required all the same.
	// +kubebuilder:validation:Required
	Value string `json:"value"`

	// Owner of the setting, required in the short spelling.
	// +required
	Owner string `json:"owner,omitempty"`
}

// Setting is one setting.
// +kubebuilder:object:root=true
type Setting struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec SettingSpec `json:"spec"`
}

// SettingList is a list of Settings.
// +kubebuilder:object:root=true
type SettingList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Setting `json:"items"`
}
