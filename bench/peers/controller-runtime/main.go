// A minimal controller-runtime operator doing what bench/runtime asks of opgen's runtime:
// reconcile every Widget by writing its status. Client-side rate limiting is off, as in the
// opgen run, so both measure the framework and the API server, not a token bucket.
package main

import (
	"context"
	"flag"
	"os"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
)

var widget = schema.GroupVersionKind{Group: "bench.opgen.dev", Version: "v1", Kind: "Widget"}

func main() {
	workers := flag.Int("workers", 1, "MaxConcurrentReconciles")
	flag.Parse()
	ctrl.SetLogger(zap.New(zap.UseDevMode(false)))

	cfg := ctrl.GetConfigOrDie()
	cfg.QPS = -1
	mgr, err := ctrl.NewManager(cfg, ctrl.Options{Metrics: metricsserver.Options{BindAddress: "0"}, HealthProbeBindAddress: "0"})
	if err != nil {
		panic(err)
	}
	obj := &unstructured.Unstructured{}
	obj.SetGroupVersionKind(widget)
	err = ctrl.NewControllerManagedBy(mgr).
		For(obj).
		WithOptions(controller.Options{MaxConcurrentReconciles: *workers}).
		Complete(reconciler{mgr.GetClient()})
	if err != nil {
		panic(err)
	}
	if err := mgr.Start(ctrl.SetupSignalHandler()); err != nil {
		os.Exit(1)
	}
}

type reconciler struct{ client client.Client }

func (r reconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	obj := &unstructured.Unstructured{}
	obj.SetGroupVersionKind(widget)
	if err := r.client.Get(ctx, req.NamespacedName, obj); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if seen, _, _ := unstructured.NestedInt64(obj.Object, "status", "observedGeneration"); seen == obj.GetGeneration() {
		return ctrl.Result{}, nil
	}
	_ = unstructured.SetNestedField(obj.Object, obj.GetGeneration(), "status", "observedGeneration")
	_ = unstructured.SetNestedField(obj.Object, "reconciled", "status", "phase")
	return ctrl.Result{}, r.client.Status().Update(ctx, obj)
}
