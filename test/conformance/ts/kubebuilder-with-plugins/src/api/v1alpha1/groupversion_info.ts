// TypeScript twin of kubebuilder's testdata/project-v4-with-plugins/api/v1alpha1/groupversion_info.go
// (test/conformance/go/kubebuilder), translated by hand for the conformance suite.

// Package v1alpha1 contains API Schema definitions for the example.com v1alpha1 API group.
// +kubebuilder:object:generate=true
// +groupName=example.com.testproject.org
export const groupVersion = { group: 'example.com.testproject.org', version: 'v1alpha1' } as const;
