// Item in two versions for the conversion half of bench/webhooks: v1 (storage) has
// spec.size, v2 (the hub) spec.replicas; what opgen's side converts with toHub/fromHub.
package main

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/webhook/conversion"
)

const itemGroup = "cr.bench.opgen.dev"

type ItemV1Spec struct {
	Size  int64  `json:"size,omitempty"`
	Image string `json:"image,omitempty"`
}

type ItemV1 struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              ItemV1Spec `json:"spec,omitempty"`
}

func (in *ItemV1) DeepCopyObject() runtime.Object {
	out := *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	return &out
}

type ItemV2Spec struct {
	Replicas int64  `json:"replicas,omitempty"`
	Image    string `json:"image,omitempty"`
}

type ItemV2 struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              ItemV2Spec `json:"spec,omitempty"`
}

func (in *ItemV2) DeepCopyObject() runtime.Object {
	out := *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	return &out
}

// itemConversion is the /convert handler: controller-runtime's hub-and-spoke converter.
func itemConversion() (*runtime.Scheme, conversion.Registry, error) {
	scheme := runtime.NewScheme()
	// Both Go types are the kind Item, in their own version.
	scheme.AddKnownTypeWithName(schema.GroupVersionKind{Group: itemGroup, Version: "v1", Kind: "Item"}, &ItemV1{})
	scheme.AddKnownTypeWithName(schema.GroupVersionKind{Group: itemGroup, Version: "v2", Kind: "Item"}, &ItemV2{})
	converter, err := conversion.NewHubSpokeConverter(&ItemV2{}, conversion.NewSpokeConverter(&ItemV1{},
		func(_ context.Context, hub *ItemV2, spoke *ItemV1) error {
			spoke.ObjectMeta = hub.ObjectMeta
			spoke.Spec = ItemV1Spec{Size: hub.Spec.Replicas, Image: hub.Spec.Image}
			return nil
		},
		func(_ context.Context, spoke *ItemV1, hub *ItemV2) error {
			hub.ObjectMeta = spoke.ObjectMeta
			hub.Spec = ItemV2Spec{Replicas: spoke.Spec.Size, Image: spoke.Spec.Image}
			return nil
		},
	))(scheme)
	if err != nil {
		return nil, nil, err
	}
	registry := conversion.NewRegistry()
	if err := registry.RegisterConverter(schema.GroupKind{Group: itemGroup, Kind: "Item"}, converter); err != nil {
		return nil, nil, err
	}
	return scheme, registry, nil
}
