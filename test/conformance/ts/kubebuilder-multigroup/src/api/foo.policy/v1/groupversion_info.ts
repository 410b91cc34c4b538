// TypeScript twin of kubebuilder's testdata/project-v4-multigroup/api/foo.policy/v1/groupversion_info.go
// (test/conformance/go/kubebuilder), translated by hand for the conformance suite.

// Package v1 contains API Schema definitions for the foo.policy v1 API group.
// +kubebuilder:object:generate=true
// +groupName=foo.policy.testproject.org
export const groupVersion = { group: 'foo.policy.testproject.org', version: 'v1' } as const;
