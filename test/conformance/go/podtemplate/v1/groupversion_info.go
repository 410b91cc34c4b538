// Package v1 is the Go twin of test/conformance/ts/podtemplate: an API that embeds built-in
// Kubernetes types, run through controller-gen v0.21 by the conformance suite.
// +kubebuilder:object:generate=true
// +groupName=podtemplate.conformance.opgen.dev
package v1

import (
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// GroupVersion is the group and version of this package's kinds.
var GroupVersion = schema.GroupVersion{Group: "podtemplate.conformance.opgen.dev", Version: "v1"}
