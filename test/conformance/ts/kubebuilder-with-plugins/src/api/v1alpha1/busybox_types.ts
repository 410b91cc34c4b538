// TypeScript twin of kubebuilder's testdata/project-v4-with-plugins/api/v1alpha1/busybox_types.go.
import type { Condition, List, ObjectMeta, int32 } from '@opgen/runtime/api';

// EDIT THIS FILE!  THIS IS SCAFFOLDING FOR YOU TO OWN!
// NOTE: json tags are required.  Any new fields you add must have json tags for the fields to be serialized.

// BusyboxSpec defines the desired state of Busybox
export interface BusyboxSpec {
  // INSERT ADDITIONAL SPEC FIELDS - desired state of cluster
  // Important: Run "make" to regenerate code after modifying this file
  // The following markers will use OpenAPI v3 schema to validate the value
  // More info: https://book.kubebuilder.io/reference/markers/crd-validation.html

  // size defines the number of Busybox instances
  // +kubebuilder:default=1
  // +kubebuilder:validation:Minimum=0
  // +optional
  size?: int32;
}

// BusyboxStatus defines the observed state of Busybox
export interface BusyboxStatus {
  // For Kubernetes API conventions, see:
  // https://github.com/kubernetes/community/blob/master/contributors/devel/sig-architecture/api-conventions.md#typical-status-properties

  // conditions represent the current state of the Busybox resource.
  // Each condition has a unique type and reflects the status of a specific aspect of the resource.
  //
  // Standard condition types include:
  // - "Available": the resource is fully functional
  // - "Progressing": the resource is being created or updated
  // - "Degraded": the resource failed to reach or maintain its desired state
  //
  // The status of each condition is one of True, False, or Unknown.
  // +listType=map
  // +listMapKey=type
  // +optional
  conditions?: Condition[];
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status

// Busybox is the Schema for the busyboxes API
export interface Busybox {
  apiVersion?: string;
  kind?: string;

  // metadata is a standard object metadata
  // +optional
  metadata?: ObjectMeta;

  // spec defines the desired state of Busybox
  // +required
  spec: BusyboxSpec;

  // status defines the observed state of Busybox
  // +optional
  status?: BusyboxStatus;
}

// +kubebuilder:object:root=true

// BusyboxList contains a list of Busybox
export interface BusyboxList extends List<Busybox> {}
