/**
 * The plain data the schema part works on: a CRD's structural schema nodes, the CRD itself
 * as far as this part reads it, and field errors shaped as apimachinery's `field.Error`.
 *
 * @module
 */
import type { CelRule, CelSchema } from '../../../internal/cel/index.js';

/**
 * One node of an `openAPIV3Schema` (apiextensions.k8s.io/v1 JSONSchemaProps), as sent in a CRD:
 * the fields the CEL checks read (shared with the CLI), and the rest of the validation keywords.
 */
export interface SchemaNode extends CelSchema {
  description?: string;
  nullable?: boolean;
  maximum?: number;
  exclusiveMaximum?: boolean;
  minimum?: number;
  exclusiveMinimum?: boolean;
  multipleOf?: number;
  minLength?: number;
  pattern?: string;
  minItems?: number;
  uniqueItems?: boolean;
  minProperties?: number;
  properties?: Record<string, SchemaNode>;
  additionalProperties?: SchemaNode | boolean;
  items?: SchemaNode;
  allOf?: SchemaNode[];
  anyOf?: SchemaNode[];
  oneOf?: SchemaNode[];
  not?: SchemaNode;
  [keyword: string]: unknown;
}

/** An `x-kubernetes-validations` entry. */
export type ValidationRule = CelRule;

/** The parts of a CustomResourceDefinition this part reads. */
export interface CrdLike {
  metadata?: { name?: string };
  spec: {
    group: string;
    scope?: string;
    names: { plural: string; singular?: string; kind: string; listKind?: string; shortNames?: string[]; categories?: string[] };
    versions: Array<{
      name: string;
      served?: boolean;
      storage?: boolean;
      schema?: { openAPIV3Schema?: SchemaNode };
      subresources?: { status?: object; scale?: object };
      selectableFields?: Array<{ jsonPath: string }>;
    }>;
    preserveUnknownFields?: boolean;
  };
}

/** `field.ErrorType` names, as they appear as a cause's `reason`. */
export type FieldErrorType =
  | 'FieldValueNotFound'
  | 'FieldValueRequired'
  | 'FieldValueDuplicate'
  | 'FieldValueInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueForbidden'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
  | 'InternalError'
  | 'FieldValueTypeInvalid';

/**
 * A field error as apimachinery's `field.Error`: `field` is the path as the API server prints
 * it (`spec.ports[0].name`, `<nil>` for none), `value` the bad value already printed as Go
 * prints it (undefined: the error omits its value), `detail` the text after it.
 */
export interface FieldError {
  type: FieldErrorType;
  field: string;
  value?: string;
  detail?: string;
}

/** A JSON value as decoded from a request body. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
