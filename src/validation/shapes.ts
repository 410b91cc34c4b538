import type { JSONSchemaProps } from '../schema/types.js';

/** The keywords of a CRD schema (`apiextensions.k8s.io/v1` JSONSchemaProps). */
export const schemaKeywords: ReadonlySet<string> = new Set([
  'type', 'format', 'title', 'description', 'default', 'example', 'nullable', 'enum', 'maximum', 'exclusiveMaximum',
  'minimum', 'exclusiveMinimum', 'multipleOf', 'maxLength', 'minLength', 'pattern', 'maxItems', 'minItems',
  'uniqueItems', 'maxProperties', 'minProperties', 'properties', 'required', 'additionalProperties', 'items', 'allOf',
  'anyOf', 'oneOf', 'not', 'externalDocs', 'x-kubernetes-preserve-unknown-fields', 'x-kubernetes-embedded-resource',
  'x-kubernetes-int-or-string', 'x-kubernetes-list-map-keys', 'x-kubernetes-list-type', 'x-kubernetes-map-type',
  'x-kubernetes-validations',
]);

/** The scalar schema types (a list-map key or a set item must be one of them). */
export function isScalarType(type: JSONSchemaProps['type']): boolean {
  return type !== 'object' && type !== 'array';
}
