import type {
  Affinity,
  Condition,
  Duration,
  IntOrString,
  LabelSelector,
  LocalObjectReference,
  ObjectMeta,
  ObjectReference,
  PodTemplateSpec,
  Quantity,
  ResourceRequirements,
  Time,
  Toleration,
} from '@opgen/runtime/api';
// A type the runtime does not declare, named by its client-node model.
import type { V1PersistentVolumeClaim } from '@kubernetes/client-node';

/** RunnerSpec is the desired state of a Runner: the pods it runs and how. */
export interface RunnerSpec {
  /** Template of the pods the runner starts. */
  template: PodTemplateSpec;
  /** Resources of the sidecar the runner adds to every pod. */
  resources?: ResourceRequirements;
  /** Tolerations added to every pod. */
  tolerations?: Toleration[];
  /** Affinity of the runner's pods. */
  affinity?: Affinity;
  /** Secret holding the runner's credentials. */
  credentialsRef?: LocalObjectReference;
  /** Service the runner reports to. */
  serviceRef?: ObjectReference;
  /** Scratch space per pod. */
  scratch?: Quantity;
  /** Port of the metrics endpoint, by number or name. */
  metricsPort?: IntOrString;
  /** How long a pod may run. */
  timeout?: Duration;
  /** Which pods count as the runner's. */
  selector?: LabelSelector;
  /** Volume claim templates, as in a StatefulSet. */
  volumeClaimTemplates?: V1PersistentVolumeClaim[];
}

/** RunnerStatus is the observed state of a Runner. */
export interface RunnerStatus {
  /** When the runner last started a pod. */
  lastStart?: Time;
  /**
   * The runner's conditions.
   * +listType=map
   * +listMapKey=type
   */
  conditions?: Condition[];
}

/**
 * Runner runs pods from a template.
 * +kubebuilder:object:root=true
 * +kubebuilder:subresource:status
 */
export interface Runner {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec: RunnerSpec;
  status?: RunnerStatus;
}

/**
 * RunnerList is a list of Runners.
 * +kubebuilder:object:root=true
 */
export interface RunnerList {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  items: Runner[];
}
