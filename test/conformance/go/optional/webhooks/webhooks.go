// Package webhooks is the Go twin of test/conformance/ts/optional/src/webhooks: webhook
// markers with every argument controller-gen v0.21 knows, for `controller-gen webhook`.
package webhooks

// +kubebuilder:webhook:path=/mutate-optional-conformance-opgen-dev-v1-setting,mutating=true,failurePolicy=fail,sideEffects=None,groups=optional.conformance.opgen.dev,resources=settings,verbs=Create;update,versions=v1,name=msetting-v1.conformance.opgen.dev,admissionReviewVersions=v1;v1beta1,reinvocationPolicy=IfNeeded,timeoutSeconds=5,matchPolicy=equivalent,webhookVersions=v1
// +kubebuilder:webhook:path=/validate-optional-conformance-opgen-dev-v1-setting,mutating=false,failurePolicy=ignore,sideEffects=NoneOnDryRun,groups=optional.conformance.opgen.dev,resources=settings;settings/status,verbs=create;update;delete;connect,versions=v1,name=vsetting-v1.conformance.opgen.dev,admissionReviewVersions=v1,serviceName=custom-webhooks,serviceNamespace=webhooks,servicePort=8443
// +kubebuilder:webhook:url="https://hooks.example.com:9443/validate-setting",mutating=false,failurePolicy=Fail,sideEffects=None,groups=optional.conformance.opgen.dev,resources=settings,verbs=*,versions=v1,name=vsetting-url.conformance.opgen.dev,admissionReviewVersions=v1
// +kubebuilder:webhook:path=/validate--v1-pod,mutating=false,failurePolicy=fail,sideEffects=None,groups=core,resources=pods,verbs=create;update,versions=v1,name=vpod-v1.conformance.opgen.dev,admissionReviewVersions=v1
// +kubebuilder:webhookconfiguration:mutating=false,name=optional-validating-webhooks
