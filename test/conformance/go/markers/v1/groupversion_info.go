// Package v1 is the Go twin of test/conformance/ts/markers: every marker and type mapping of
// docs/api-types.md, run through controller-gen v0.21 by the conformance suite.
// +kubebuilder:object:generate=true
// +groupName=markers.conformance.opgen.dev
package v1

import (
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// GroupVersion is the group and version of this package's kinds.
var GroupVersion = schema.GroupVersion{Group: "markers.conformance.opgen.dev", Version: "v1"}
