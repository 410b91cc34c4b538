// The kubebuilder side of the "Coming from kubebuilder" chapter: the same Widget operator
// in Go with controller-runtime, for comparison. Unlike the TypeScript snippets, this
// file is not compiled by the book's tests.
package widget

import (
	"context"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/client-go/tools/record"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// #region types
// WidgetSpec is what the user wants.
type WidgetSpec struct {
	// +kubebuilder:validation:Minimum=0
	Size int32 `json:"size"`
	// +optional
	Owner string `json:"owner,omitempty"`
}

// WidgetStatus is what the controller saw.
type WidgetStatus struct {
	// +optional
	ObservedSize int32 `json:"observedSize,omitempty"`
	// +listType=map
	// +listMapKey=type
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status

// Widget is the Schema for the widgets API.
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   WidgetSpec   `json:"spec"`
	Status WidgetStatus `json:"status,omitempty"`
}
// #endregion types

const finalizer = "web.example.com/cleanup"

type WidgetReconciler struct {
	client.Client
	Scheme   *runtime.Scheme
	Recorder record.EventRecorder
}

// #region builder
func (r *WidgetReconciler) SetupWithManager(mgr ctrl.Manager) error {
	byOwner := func(o client.Object) []string {
		owner := metav1.GetControllerOf(o)
		if owner == nil {
			return nil
		}
		return []string{owner.Name}
	}
	indexer := mgr.GetFieldIndexer()
	ctx := context.Background()
	err := indexer.IndexField(ctx, &corev1.ConfigMap{}, "widget", byOwner)
	if err != nil {
		return err
	}
	return ctrl.NewControllerManagedBy(mgr).
		For(&Widget{}).
		Owns(&corev1.ConfigMap{}).
		Complete(r)
}
// #endregion builder

// #region reconcile
func (r *WidgetReconciler) Reconcile(
	ctx context.Context, req ctrl.Request,
) (ctrl.Result, error) {
	var widget Widget
	if err := r.Get(ctx, req.NamespacedName, &widget); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if widget.Spec.Size > 100 {
		err := fmt.Errorf("size %d is more than this controller serves", widget.Spec.Size)
		return ctrl.Result{}, reconcile.TerminalError(err)
	}
	// #region finalize
	if !widget.DeletionTimestamp.IsZero() {
		if controllerutil.ContainsFinalizer(&widget, finalizer) {
			// release what the finalizer guards, then:
			controllerutil.RemoveFinalizer(&widget, finalizer)
			return ctrl.Result{}, r.Update(ctx, &widget)
		}
		return ctrl.Result{}, nil
	}
	if controllerutil.AddFinalizer(&widget, finalizer) {
		if err := r.Update(ctx, &widget); err != nil {
			return ctrl.Result{}, err
		}
	}
	// #endregion finalize
	return r.apply(ctx, &widget)
}
// #endregion reconcile

// #region apply
func (r *WidgetReconciler) apply(
	ctx context.Context, widget *Widget,
) (ctrl.Result, error) {
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{
		Name:      fmt.Sprintf("%s-size-%d", widget.Name, widget.Spec.Size),
		Namespace: widget.Namespace,
	}}
	if _, err := controllerutil.CreateOrUpdate(ctx, r.Client, cm, func() error {
		cm.Data = map[string]string{"size": fmt.Sprint(widget.Spec.Size)}
		return controllerutil.SetControllerReference(widget, cm, r.Scheme)
	}); err != nil {
		return ctrl.Result{}, err
	}
	stale, err := r.configMapsOf(ctx, widget)
	if err != nil {
		return ctrl.Result{}, err
	}
	for i := range stale {
		if stale[i].Name != cm.Name {
			if err := r.Delete(ctx, &stale[i]); client.IgnoreNotFound(err) != nil {
				return ctrl.Result{}, err
			}
		}
	}
	// #region events
	r.Recorder.Eventf(widget, corev1.EventTypeNormal, "Applied",
		"ConfigMap %s holds size %d", cm.Name, widget.Spec.Size)
	// #endregion events
	// #region status
	widget.Status.ObservedSize = widget.Spec.Size
	meta.SetStatusCondition(&widget.Status.Conditions, metav1.Condition{
		Type:               "Ready",
		Status:             metav1.ConditionTrue,
		Reason:             "ConfigMapApplied",
		Message:            fmt.Sprintf("size %d", widget.Spec.Size),
		ObservedGeneration: widget.Generation,
	})
	if err := r.Status().Update(ctx, widget); err != nil {
		return ctrl.Result{}, err
	}
	// #endregion status
	// #region requeue
	return ctrl.Result{RequeueAfter: time.Hour}, nil
	// #endregion requeue
}
// #endregion apply

// #region list-index
func (r *WidgetReconciler) configMapsOf(
	ctx context.Context, widget *Widget,
) ([]corev1.ConfigMap, error) {
	var list corev1.ConfigMapList
	err := r.List(ctx, &list, client.InNamespace(widget.Namespace),
		client.MatchingFields{"widget": widget.Name})
	return list.Items, err
}
// #endregion list-index

// #region read
func (r *WidgetReconciler) readOwnerSecret(
	ctx context.Context, widget *Widget,
) (*corev1.Secret, error) {
	if widget.Spec.Owner == "" {
		return nil, nil
	}
	var secret corev1.Secret
	key := client.ObjectKey{Namespace: widget.Namespace, Name: widget.Spec.Owner}
	err := r.Get(ctx, key, &secret)
	if apierrors.IsNotFound(err) {
		return nil, nil
	}
	return &secret, err
}
// #endregion read

// #region validate
func validateWidget(widget *Widget) (admission.Warnings, error) {
	var errs field.ErrorList
	if widget.Spec.Size%2 != 0 {
		path := field.NewPath("spec", "size")
		errs = append(errs, field.Invalid(path, widget.Spec.Size, "must be even"))
	}
	if len(errs) > 0 {
		kind := widget.GroupVersionKind().GroupKind()
		return nil, apierrors.NewInvalid(kind, widget.Name, errs)
	}
	return nil, nil
}
// #endregion validate

// #region testing
var _ = It("applies the Widget's ConfigMap", func(ctx SpecContext) {
	widget := &Widget{
		ObjectMeta: metav1.ObjectMeta{Name: "w", Namespace: "default"},
		Spec:       WidgetSpec{Size: 4},
	}
	Expect(k8sClient.Create(ctx, widget)).To(Succeed())
	Eventually(func(g Gomega) {
		var cm corev1.ConfigMap
		key := client.ObjectKey{Namespace: "default", Name: "w-size-4"}
		g.Expect(k8sClient.Get(ctx, key, &cm)).To(Succeed())
		g.Expect(cm.Data).To(Equal(map[string]string{"size": "4"}))
	}).Should(Succeed())
	Consistently(func() bool {
		key := client.ObjectKey{Namespace: "default", Name: "too-big-size-1000"}
		err := k8sClient.Get(ctx, key, &corev1.ConfigMap{})
		return apierrors.IsNotFound(err)
	}, "2s").Should(BeTrue())
})
// #endregion testing

var k8sClient client.Client
