/**
 * The schema model the CEL checks read: the fields of an apiextensions.k8s.io/v1
 * JSONSchemaProps node that decide a rule's types and cost. Both the CLI's generated schemas
 * and the CRDs the memory cluster admits fit it.
 *
 * @module
 */

/** A structural schema node, as far as CEL type checking and cost estimation read it. */
export interface CelSchema {
  type?: string;
  format?: string;
  default?: unknown;
  enum?: unknown[];
  maxLength?: number;
  maxItems?: number;
  maxProperties?: number;
  properties?: Record<string, CelSchema>;
  required?: string[];
  additionalProperties?: CelSchema | boolean;
  items?: CelSchema;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-list-type'?: string;
  'x-kubernetes-map-type'?: string;
  'x-kubernetes-validations'?: CelRule[];
}

/** An `x-kubernetes-validations` entry. */
export interface CelRule {
  rule: string;
  message?: string;
  messageExpression?: string;
  reason?: string;
  fieldPath?: string;
  optionalOldSelf?: boolean;
}
