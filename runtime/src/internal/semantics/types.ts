/**
 * The plain data the schema part works on: a CRD's structural schema nodes, the CRD itself
 * as far as this part reads it, and field errors shaped as apimachinery's `field.Error`.
 *
 * @module
 */
import type { CelRule, CelSchema } from '../cel/index.js';

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
  /**
   * What a value broke, for a caller that words errors its own way (the CLI): the schema
   * keyword, its value there (`limit`), and what the value had instead (`actual`: the value,
   * its JSON type, length or count). Never printed: the API server's words are `detail`.
   * Absent on the notes kube-openapi adds beside another error (`Checked value must be …`).
   */
  check?: ValueCheck;
}

/** See {@link FieldError.check}: `{ keyword: 'maximum', limit: 5, actual: 7 }`. */
export interface ValueCheck {
  keyword: string;
  limit?: Json;
  actual?: Json;
  /** The value's path where the error's `field` is `<nil>` (kube-openapi's notes name none). */
  field?: string;
}

/** A JSON value as decoded from a request body. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Structural equality of JSON values; object key order does not matter. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === (b as unknown[]).length && a.every((item, i) => deepEqual(item, (b as unknown[])[i]));
  const keys = Object.keys(a as object);
  if (keys.length !== Object.keys(b as object).length) return false;
  return keys.every((key) => key in (b as object) && deepEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}
