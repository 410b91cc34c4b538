// TypeScript twin of kubebuilder's testdata/project-v4-multigroup/api/ship/v1/groupversion_info.go
// (test/conformance/go/kubebuilder), translated by hand for the conformance suite.

// Package v1 contains API Schema definitions for the ship v1 API group.
// +kubebuilder:object:generate=true
// +groupName=ship.testproject.org
export const groupVersion = { group: 'ship.testproject.org', version: 'v1' } as const;
