package v1

// Label is a DNS-1123 label.
// +kubebuilder:validation:MinLength=1
// +kubebuilder:validation:MaxLength=63
// +kubebuilder:validation:Pattern=`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`
type Label string

// Strategy is how a gadget is rolled out.
// +kubebuilder:validation:Enum=Recreate;Rolling
type Strategy string

// Priority classes, as numbers.
// +kubebuilder:validation:Enum=0;10;100
type Priority int32

// PartBase holds the fields every part has.
type PartBase struct {
	// Serial number of the part.
	// +kubebuilder:validation:Pattern=`^[A-Z]{2}[0-9]{4}$`
	Serial string `json:"serial"`
}

// Part is a part of a gadget: its base fields plus a weight.
type Part struct {
	PartBase `json:",inline"`

	// Weight in grams.
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:ExclusiveMinimum=true
	Weight float64 `json:"weight"`
}

// Port is a TCP or UDP port.
type Port struct {
	// Name of the port.
	Name Label `json:"name"`

	// Port number.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=65535
	Port int32 `json:"port"`

	// Protocol of the port.
	// +kubebuilder:validation:Enum=TCP;UDP
	// +optional
	Protocol string `json:"protocol,omitempty"`
}

// PartPage is a page of parts and where the next one starts.
type PartPage struct {
	Items []Part `json:"items"`

	// Token of the next page, if any.
	// +optional
	Next string `json:"next,omitempty"`
}

// Source is where the gadget's data comes from: exactly one source.
// +kubebuilder:validation:ExactlyOneOf=url;configMap
type Source struct {
	// +kubebuilder:validation:Format=uri
	// +optional
	URL *string `json:"url,omitempty"`
	// +optional
	ConfigMap *string `json:"configMap,omitempty"`
}

// Limits of a gadget: at most one of the two caps, and at least one of the two floors.
// +kubebuilder:validation:AtMostOneOf=softCap;hardCap
// +kubebuilder:validation:AtLeastOneOf=floor;minimumFloor
// +kubebuilder:validation:XValidation:rule="!has(self.softCap) || !has(self.floor) || self.softCap >= self.floor",message="softCap must not be below floor"
type Limits struct {
	// +optional
	SoftCap *int32 `json:"softCap,omitempty"`
	// +optional
	HardCap *int32 `json:"hardCap,omitempty"`
	// +optional
	Floor *int32 `json:"floor,omitempty"`
	// +optional
	MinimumFloor *int32 `json:"minimumFloor,omitempty"`
}

// PartOverrides overrides a part's base fields and adds a note.
type PartOverrides struct {
	PartBase `json:",inline"`

	// +optional
	Note *string `json:"note,omitempty"`
}

// Phase of a gadget, an enumeration of the constants below.
// +k8s:enum
type Phase string

const (
	// PhasePending is a gadget not yet built.
	PhasePending Phase = "Pending"
	// PhaseReady is a gadget ready to use.
	PhaseReady Phase = "Ready"
)
