// TypeScript twin of kubebuilder's testdata/project-v4-multigroup/api/crew/v1/groupversion_info.go
// (test/conformance/go/kubebuilder), translated by hand for the conformance suite.

// Package v1 contains API Schema definitions for the crew v1 API group.
// +kubebuilder:object:generate=true
// +groupName=crew.testproject.org
export const groupVersion = { group: 'crew.testproject.org', version: 'v1' } as const;
