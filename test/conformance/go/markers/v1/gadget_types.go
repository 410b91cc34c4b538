package v1

import (
	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// GadgetSpec shows every type mapping and schema marker.
type GadgetSpec struct {
	// Display name.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=40
	DisplayName string `json:"displayName"`

	// Model code.
	// +kubebuilder:validation:MinLength=2
	// +kubebuilder:validation:MaxLength=8
	// +kubebuilder:validation:Pattern=`^[A-Z0-9-]+$`
	// +kubebuilder:example="GX-1"
	// +kubebuilder:title=Model
	Model string `json:"model"`

	// Rollout strategy.
	// +kubebuilder:default=Rolling
	// +optional
	Strategy Strategy `json:"strategy,omitempty"`

	// Priority class.
	// +kubebuilder:default=10
	// +optional
	Priority Priority `json:"priority,omitempty"`

	// Pull policy, as in containers.
	// +kubebuilder:validation:Enum=Always;IfNotPresent;Never
	// +default="IfNotPresent"
	// +optional
	PullPolicy string `json:"pullPolicy,omitempty"`

	// Parts of the gadget, keyed by serial.
	// +listType=map
	// +listMapKey=serial
	// +kubebuilder:validation:MaxItems=16
	// +optional
	Parts []Part `json:"parts,omitempty"`

	// Tags, each unique.
	// +listType=set
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:items:MaxLength=20
	// +optional
	Tags []string `json:"tags,omitempty"`

	// Ports the gadget listens on.
	// +listType=atomic
	// +optional
	Ports []Port `json:"ports,omitempty"`

	// Labels copied to the gadget's pods.
	// +mapType=granular
	// +kubebuilder:validation:MaxProperties=8
	// +optional
	PodLabels map[string]string `json:"podLabels,omitempty"`

	// Annotations replaced as a whole.
	// +mapType=atomic
	// +kubebuilder:validation:MinProperties=1
	// +optional
	Annotations map[string]string `json:"annotations,omitempty"`

	// Source of the gadget's data.
	// +structType=atomic
	// +optional
	Source *Source `json:"source,omitempty"`

	// Limits of the gadget.
	// +optional
	Limits *Limits `json:"limits,omitempty"`

	// Storage size.
	// +optional
	Size *resource.Quantity `json:"size,omitempty"`

	// Port or port name of the gadget's service.
	// +kubebuilder:validation:XIntOrString
	// +optional
	ServicePort *intstr.IntOrString `json:"servicePort,omitempty"`

	// Retries, a multiple of 3.
	// +kubebuilder:validation:MultipleOf=3
	// +optional
	Retries *int64 `json:"retries,omitempty"`

	// Replicas, any integer.
	// +kubebuilder:validation:Maximum=10
	// +kubebuilder:validation:ExclusiveMaximum=true
	// +optional
	Replicas *int32 `json:"replicas,omitempty"`

	// Ratio between 0 and 1.
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=1
	// +kubebuilder:validation:ExclusiveMinimum=false
	// +kubebuilder:validation:ExclusiveMaximum=false
	// +optional
	Ratio *float64 `json:"ratio,omitempty"`

	// When the gadget was built.
	// +optional
	BuiltAt *metav1.Time `json:"builtAt,omitempty"`

	// When the gadget was last probed, to the microsecond.
	// +optional
	ProbedAt *metav1.MicroTime `json:"probedAt,omitempty"`

	// How long a rollout may take.
	// +optional
	Timeout *metav1.Duration `json:"timeout,omitempty"`

	// A small binary blob.
	// +optional
	Blob []byte `json:"blob,omitempty"`

	// A nullable note.
	// +nullable
	// +optional
	Note *string `json:"note,omitempty"`

	// A nullable flag.
	// +nullable
	// +optional
	Enabled *bool `json:"enabled,omitempty"`

	// Anything the plugin wants to keep.
	// +optional
	PluginConfig *apiextensionsv1.JSON `json:"pluginConfig,omitempty"`

	// An embedded object of any kind.
	// +kubebuilder:validation:EmbeddedResource
	// +kubebuilder:pruning:PreserveUnknownFields
	// +optional
	Extra runtime.RawExtension `json:"extra,omitempty"`

	// Free-form settings the operator does not look into.
	// +kubebuilder:validation:Schemaless
	// +kubebuilder:validation:Type=object
	// +kubebuilder:pruning:PreserveUnknownFields
	// +optional
	Settings map[string]string `json:"settings,omitempty"`

	// Resources of the gadget's pods.
	// +optional
	Resources *corev1.ResourceRequirements `json:"resources,omitempty"`

	// The object the gadget reports to.
	// +optional
	ReportTo *corev1.ObjectReference `json:"reportTo,omitempty"`

	// A page of parts.
	// +optional
	PartsPage *PartPage `json:"partsPage,omitempty"`

	// Link to the gadget's manual.
	// +kubebuilder:externalDocs:url="https://example.com/gadgets",description="Gadget manual"
	// +optional
	Manual string `json:"manual,omitempty"`

	// Size of the gadget in millimetres, required.
	// +required
	// +kubebuilder:validation:Minimum=1
	Length int32 `json:"length"`

	// Colour of the gadget, optional in the kubebuilder spelling.
	// +kubebuilder:validation:Optional
	Colour string `json:"colour"`

	// Finish of the gadget, required in the kubebuilder spelling.
	// +kubebuilder:validation:Required
	Finish string `json:"finish,omitempty"`

	// Zone of the gadget, optional in the k8s spelling.
	// +k8s:optional
	Zone string `json:"zone"`

	// Owners of the gadget, a set in the k8s spelling.
	// +k8s:listType=set
	// +optional
	Owners []string `json:"owners,omitempty"`

	// Defaults given as an object.
	// +kubebuilder:default={mode: "fast", level: "high"}
	// +optional
	Tuning map[string]string `json:"tuning,omitempty"`

	// Defaults given as a list.
	// +kubebuilder:default={"a","b"}
	// +optional
	Stages []string `json:"stages,omitempty"`

	// A label of the gadget.
	// +kubebuilder:validation:XValidation:rule="self != 'reserved'",messageExpression="'label ' + self + ' is reserved'",reason=FieldValueForbidden
	// +optional
	Label Label `json:"label,omitempty"`

	// Overrides of a part's base fields, plus a note.
	// +optional
	Overrides *PartOverrides `json:"overrides,omitempty"`

	// Parts by name.
	// +optional
	PartsByName map[string]Part `json:"partsByName,omitempty"`

	// Level of detail.
	// +kubebuilder:validation:Enum=1;2;3
	// +optional
	Level int `json:"level,omitempty"`

	// Weight in grams or as text.
	// +optional
	Weight *intstr.IntOrString `json:"weight,omitempty"`

	// Aliases, in order.
	// +kubebuilder:validation:UniqueItems=false
	// +optional
	Aliases []string `json:"aliases,omitempty"`

	// Batch the gadget was made in: cannot change, nor be removed, once set.
	// +k8s:immutable
	// +optional
	Batch *string `json:"batch,omitempty"`

	// Factory of the gadget: cannot change once set.
	// +k8s:immutable
	Factory string `json:"factory"`

	// Immutable once set.
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="serial is immutable"
	// +optional
	Serial string `json:"serial,omitempty"`
}

// GadgetStatus is the observed state of a Gadget.
type GadgetStatus struct {
	// Last observed generation.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`

	// Replicas running.
	// +optional
	Replicas int32 `json:"replicas,omitempty"`

	// Phase of the gadget.
	// +optional
	Phase Phase `json:"phase,omitempty"`

	// Selector of the gadget's pods, for the scale subresource.
	// +optional
	Selector string `json:"selector,omitempty"`

	// Health of the gadget, typed as core conditions' status.
	// +optional
	Health corev1.ConditionStatus `json:"health,omitempty"`

	// Conditions of the gadget.
	// +listType=map
	// +listMapKey=type
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// Gadget shows every type mapping and schema marker.
// +kubebuilder:object:root=true
// +kubebuilder:resource:shortName=gd;gad,categories=all;shop,singular=gadget
// +kubebuilder:subresource:status
// +kubebuilder:subresource:scale:specpath=.spec.length,statuspath=.status.replicas,selectorpath=.status.selector
// +kubebuilder:printcolumn:name="Model",type=string,JSONPath=`.spec.model`
// +kubebuilder:printcolumn:name="Length",type=integer,JSONPath=`.spec.length`,description="Length in mm",priority=1
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
// +kubebuilder:printcolumn:name="Serial",type=string,JSONPath=`.spec.serial`,description="",format="",priority=0
// +kubebuilder:selectablefield:JSONPath=`.spec.model`
// +kubebuilder:metadata:annotations="shop.example.com/owner=team-gadgets"
// +kubebuilder:metadata:labels="shop.example.com/tier=gold"
// +kubebuilder:validation:XValidation:rule="self.metadata.name.size() <= 40",message="gadget names are at most 40 characters"
// +kubebuilder:storageversion
type Gadget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   GadgetSpec   `json:"spec"`
	Status GadgetStatus `json:"status,omitempty"`
}

// GadgetList is a list of Gadgets.
// +kubebuilder:object:root=true
type GadgetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Gadget `json:"items"`
}

// Cog is a cluster-scoped kind.
// +kubebuilder:object:root=true
// +kubebuilder:storageversion
// +kubebuilder:resource:scope=Cluster,path=cogwheels
type Cog struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Teeth of the cog.
	// +kubebuilder:validation:Minimum=3
	Teeth int32 `json:"teeth"`
}

// CogList is a list of Cogs.
// +kubebuilder:object:root=true
type CogList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Cog `json:"items"`
}
