/*
Copyright 2020 The cert-manager Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

// TypeScript twin of cert-manager's pkg/apis/certmanager/v1/doc.go
// (test/conformance/go-cert-manager), translated for the conformance suite.

// Package v1 is the v1 version of the API.
// +k8s:deepcopy-gen=package,register
// +k8s:openapi-gen=true
// +groupName=cert-manager.io
// +groupGoName=Certmanager
export const groupVersion = { group: 'cert-manager.io', version: 'v1' } as const;
