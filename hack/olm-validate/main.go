// Command olm-validate loads an OLM registry+v1 bundle directory with operator-framework/api's
// own loader and runs its default bundle validators (those `operator-sdk bundle validate` runs
// without --select-optional). It prints one JSON object per line for each error and warning,
// and exits 1 when the bundle cannot be loaded or has an error. opgen's tests run it against
// the bundles `opgen bundle` writes.
package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/operator-framework/api/pkg/manifests"
	"github.com/operator-framework/api/pkg/validation"
	"github.com/operator-framework/api/pkg/validation/errors"
)

type finding struct {
	Level   string `json:"level"`
	Type    string `json:"type"`
	Field   string `json:"field,omitempty"`
	Detail  string `json:"detail"`
	Subject string `json:"subject"`
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: olm-validate <bundle-dir>")
		os.Exit(2)
	}
	bundle, err := manifests.GetBundleFromDir(os.Args[1])
	if err != nil {
		fmt.Fprintf(os.Stderr, "olm-validate: loading the bundle: %v\n", err)
		os.Exit(1)
	}
	failed := false
	out := json.NewEncoder(os.Stdout)
	for _, result := range validation.DefaultBundleValidators.Validate(bundle.ObjectsToValidate()...) {
		for _, e := range result.Errors {
			failed = failed || e.Level == errors.LevelError
			_ = out.Encode(finding{string(e.Level), string(e.Type), e.Field, e.Detail, result.Name})
		}
		for _, w := range result.Warnings {
			_ = out.Encode(finding{string(w.Level), string(w.Type), w.Field, w.Detail, result.Name})
		}
	}
	if failed {
		os.Exit(1)
	}
}
