// TypeScript twin of kubebuilder's testdata/project-v4-multigroup/api/sea-creatures/v1beta1/groupversion_info.go
// (test/conformance/go/kubebuilder), translated by hand for the conformance suite.

// Package v1beta1 contains API Schema definitions for the sea-creatures v1beta1 API group.
// +kubebuilder:object:generate=true
// +groupName=sea-creatures.testproject.org
export const groupVersion = { group: 'sea-creatures.testproject.org', version: 'v1beta1' } as const;
