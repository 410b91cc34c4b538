package v1

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// RunnerSpec is the desired state of a Runner: the pods it runs and how.
type RunnerSpec struct {
	// Template of the pods the runner starts.
	Template corev1.PodTemplateSpec `json:"template"`

	// Resources of the sidecar the runner adds to every pod.
	// +optional
	Resources corev1.ResourceRequirements `json:"resources,omitempty"`

	// Tolerations added to every pod.
	// +optional
	Tolerations []corev1.Toleration `json:"tolerations,omitempty"`

	// Affinity of the runner's pods.
	// +optional
	Affinity *corev1.Affinity `json:"affinity,omitempty"`

	// Secret holding the runner's credentials.
	// +optional
	CredentialsRef *corev1.LocalObjectReference `json:"credentialsRef,omitempty"`

	// Service the runner reports to.
	// +optional
	ServiceRef *corev1.ObjectReference `json:"serviceRef,omitempty"`

	// Scratch space per pod.
	// +optional
	Scratch *resource.Quantity `json:"scratch,omitempty"`

	// Port of the metrics endpoint, by number or name.
	// +optional
	MetricsPort *intstr.IntOrString `json:"metricsPort,omitempty"`

	// How long a pod may run.
	// +optional
	Timeout *metav1.Duration `json:"timeout,omitempty"`

	// Which pods count as the runner's.
	// +optional
	Selector *metav1.LabelSelector `json:"selector,omitempty"`

	// Volume claim templates, as in a StatefulSet.
	// +optional
	VolumeClaimTemplates []corev1.PersistentVolumeClaim `json:"volumeClaimTemplates,omitempty"`
}

// RunnerStatus is the observed state of a Runner.
type RunnerStatus struct {
	// When the runner last started a pod.
	// +optional
	LastStart *metav1.Time `json:"lastStart,omitempty"`

	// The runner's conditions.
	// +listType=map
	// +listMapKey=type
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// Runner runs pods from a template.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
type Runner struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   RunnerSpec   `json:"spec"`
	Status RunnerStatus `json:"status,omitempty"`
}

// RunnerList is a list of Runners.
// +kubebuilder:object:root=true
type RunnerList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Runner `json:"items"`
}
