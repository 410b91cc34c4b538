/**
 * The types `@opgen/runtime/api` declares by hand (index.ts re-exports them), apart from the
 * index so that the generated kubernetes.ts can build on them without importing the index
 * that re-exports it.
 *
 * @module
 */

/** A 32-bit signed integer: `type: integer, format: int32`. */
export type int32 = number;

/** A 64-bit signed integer: `type: integer, format: int64`. JavaScript numbers are exact to 2^53. */
export type int64 = number;

/** An integer of unspecified width: `type: integer`. */
export type integer = number;

/**
 * A Kubernetes resource quantity such as `10Gi`, `500m` or `3`: int-or-string with the
 * API server's quantity pattern.
 */
export type Quantity = string | number;

/** A value that is either an integer or a string, such as a port number or name. */
export type IntOrString = number | string;

/** An RFC 3339 timestamp with second precision: `type: string, format: date-time`. */
export type Time = string;

/** An RFC 3339 timestamp with microsecond precision: `type: string, format: date-time`. */
export type MicroTime = string;

/** A Go duration string such as `1h30m` or `15s`. */
export type Duration = string;

/** Base64-encoded bytes: `type: string, format: byte`. */
export type Bytes = string;

/** Any JSON value; the API server keeps it as it is (`x-kubernetes-preserve-unknown-fields`). */
export type JSONValue = string | number | boolean | null | JSONValue[] | { [key: string]: JSONValue };

/** An embedded object of any kind, kept as it is: `type: object` with unknown fields preserved. */
export type RawExtension = { [key: string]: JSONValue };

/** `apiVersion` and `kind`: what every object sent to the API server carries. */
export interface TypeMeta {
  apiVersion?: string;
  kind?: string;
}

/** An owner reference, as `metadata.ownerReferences` holds them. */
export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

/** A managed-fields entry written by server-side apply. */
export interface ManagedFieldsEntry {
  apiVersion?: string;
  fieldsType?: string;
  fieldsV1?: RawExtension;
  manager?: string;
  operation?: string;
  subresource?: string;
  time?: Time;
}

/** Standard object metadata (`metav1.ObjectMeta`). */
export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: int64;
  creationTimestamp?: Time;
  deletionTimestamp?: Time;
  deletionGracePeriodSeconds?: int64;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReference[];
  finalizers?: string[];
  managedFields?: ManagedFieldsEntry[];
}

/** Standard list metadata (`metav1.ListMeta`). */
export interface ListMeta {
  resourceVersion?: string;
  continue?: string;
  remainingItemCount?: int64;
}

/**
 * The shape of a list type. An API file declares `export interface FooList extends
 * List<Foo> {}` with `+kubebuilder:object:root=true`; lists produce no CRD.
 */
export interface List<T> {
  apiVersion?: string;
  kind?: string;
  metadata?: ListMeta;
  items: T[];
}

/** The status of a condition. */
export type ConditionStatus = 'True' | 'False' | 'Unknown';

/** One aspect of an object's current state (`metav1.Condition`). */
export interface Condition {
  /** Type of condition in CamelCase, e.g. `Ready`. */
  type: string;
  status: ConditionStatus;
  /** The `.metadata.generation` the condition was set for. */
  observedGeneration?: int64;
  /** When the condition last changed from one status to another. */
  lastTransitionTime: Time;
  /** A CamelCase reason for the last transition. */
  reason: string;
  /** A human-readable message about the transition. */
  message: string;
}

/** A reference to an object of any kind (`corev1.ObjectReference`). */
export interface ObjectReference {
  apiVersion?: string;
  kind?: string;
  name?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  fieldPath?: string;
}

/** A reference to an object by name in the same namespace (`corev1.LocalObjectReference`). */
export interface LocalObjectReference {
  name?: string;
}

/** `{ group, version }` as a `groupversion_info.ts` file exports it. */
export interface GroupVersion {
  readonly group: string;
  readonly version: string;
}
