// TypeScript twin of kubebuilder's testdata/project-v4-with-plugins/api/v1/wordpress_types.go.
import type { Condition, List, ObjectMeta } from '@opgen/runtime/api';

// EDIT THIS FILE!  THIS IS SCAFFOLDING FOR YOU TO OWN!
// NOTE: json tags are required.  Any new fields you add must have json tags for the fields to be serialized.

// WordpressSpec defines the desired state of Wordpress
export interface WordpressSpec {
  // INSERT ADDITIONAL SPEC FIELDS - desired state of cluster
  // Important: Run "make" to regenerate code after modifying this file
  // The following markers will use OpenAPI v3 schema to validate the value
  // More info: https://book.kubebuilder.io/reference/markers/crd-validation.html

  // foo is an example field of Wordpress. Edit wordpress_types.go to remove/update
  // +optional
  foo?: string;
}

// WordpressStatus defines the observed state of Wordpress.
export interface WordpressStatus {
  // INSERT ADDITIONAL STATUS FIELD - define observed state of cluster
  // Important: Run "make" to regenerate code after modifying this file

  // For Kubernetes API conventions, see:
  // https://github.com/kubernetes/community/blob/master/contributors/devel/sig-architecture/api-conventions.md#typical-status-properties

  // conditions represent the current state of the Wordpress resource.
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
// +kubebuilder:storageversion
// +kubebuilder:subresource:status

// Wordpress is the Schema for the wordpresses API
export interface Wordpress {
  apiVersion?: string;
  kind?: string;

  // metadata is a standard object metadata
  // +optional
  metadata?: ObjectMeta;

  // spec defines the desired state of Wordpress
  // +required
  spec: WordpressSpec;

  // status defines the observed state of Wordpress
  // +optional
  status?: WordpressStatus;
}

// +kubebuilder:object:root=true

// WordpressList contains a list of Wordpress
export interface WordpressList extends List<Wordpress> {}
