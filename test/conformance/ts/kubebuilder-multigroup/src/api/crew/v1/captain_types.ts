// TypeScript twin of kubebuilder's testdata/project-v4-multigroup/api/crew/v1/captain_types.go.
import type { Condition, List, ObjectMeta } from '@opgen/runtime/api';

// EDIT THIS FILE!  THIS IS SCAFFOLDING FOR YOU TO OWN!
// NOTE: json tags are required.  Any new fields you add must have json tags for the fields to be serialized.

// CaptainSpec defines the desired state of Captain
export interface CaptainSpec {
  // INSERT ADDITIONAL SPEC FIELDS - desired state of cluster
  // Important: Run "make" to regenerate code after modifying this file
  // The following markers will use OpenAPI v3 schema to validate the value
  // More info: https://book.kubebuilder.io/reference/markers/crd-validation.html

  // foo is an example field of Captain. Edit captain_types.go to remove/update
  // +optional
  foo?: string;
}

// CaptainStatus defines the observed state of Captain.
export interface CaptainStatus {
  // INSERT ADDITIONAL STATUS FIELD - define observed state of cluster
  // Important: Run "make" to regenerate code after modifying this file

  // For Kubernetes API conventions, see:
  // https://github.com/kubernetes/community/blob/master/contributors/devel/sig-architecture/api-conventions.md#typical-status-properties

  // conditions represent the current state of the Captain resource.
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

// Captain is the Schema for the captains API
export interface Captain {
  apiVersion?: string;
  kind?: string;

  // metadata is a standard object metadata
  // +optional
  metadata?: ObjectMeta;

  // spec defines the desired state of Captain
  // +required
  spec: CaptainSpec;

  // status defines the observed state of Captain
  // +optional
  status?: CaptainStatus;
}

// +kubebuilder:object:root=true

// CaptainList contains a list of Captain
export interface CaptainList extends List<Captain> {}
