//go:build tools

// The API packages main.go loads by path, kept in go.mod as dependencies.
package main

import (
	_ "k8s.io/api/core/v1"
	_ "k8s.io/apimachinery/pkg/version"
	_ "k8s.io/kube-aggregator/pkg/apis/apiregistration/v1"
)
