// A minimal controller-runtime webhook doing what bench/webhooks asks of opgen's runtime:
// a defaulter that sets one label, answered with the JSON Patch from the raw object, and
// the conversion of Item between v1 and v2 on /convert.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"net/http"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	"sigs.k8s.io/controller-runtime/pkg/webhook"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"
	"sigs.k8s.io/controller-runtime/pkg/webhook/conversion"
)

func main() {
	port := flag.Int("port", 9443, "webhook port")
	certDir := flag.String("cert-dir", "", "directory with tls.crt and tls.key")
	flag.Parse()
	ctrl.SetLogger(zap.New(zap.UseDevMode(false)))

	server := webhook.NewServer(webhook.Options{Host: "127.0.0.1", Port: *port, CertDir: *certDir})
	server.Register("/mutate", &admission.Webhook{Handler: admission.HandlerFunc(func(_ context.Context, req admission.Request) admission.Response {
		object := map[string]any{}
		if err := json.Unmarshal(req.Object.Raw, &object); err != nil {
			return admission.Errored(http.StatusBadRequest, err)
		}
		metadata, _ := object["metadata"].(map[string]any)
		labels, _ := metadata["labels"].(map[string]any)
		if labels == nil {
			labels = map[string]any{}
		}
		labels["defaulted"] = "true"
		metadata["labels"] = labels
		mutated, err := json.Marshal(object)
		if err != nil {
			return admission.Errored(http.StatusInternalServerError, err)
		}
		return admission.PatchResponseFromRaw(req.Object.Raw, mutated)
	})})
	scheme, registry, err := itemConversion()
	if err != nil {
		panic(err)
	}
	server.Register("/convert", conversion.NewWebhookHandler(scheme, registry))
	if err := server.Start(ctrl.SetupSignalHandler()); err != nil {
		panic(err)
	}
}
