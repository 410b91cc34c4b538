// Package v1 is the Go twin of test/conformance/ts/optional: a version whose fields are
// optional unless marked required (the Optional marker at package level).
// +kubebuilder:object:generate=true
// +kubebuilder:validation:Optional
// +groupName=optional.conformance.opgen.dev
package v1

import (
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// GroupVersion is the group and version of this package's kinds.
var GroupVersion = schema.GroupVersion{Group: "optional.conformance.opgen.dev", Version: "v1"}
