import type { JSONSchemaProps } from '../types.js';

/** The pattern controller-gen puts on every `resource.Quantity`. */
export const quantityPattern =
  '^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$';

const intOrString = (): JSONSchemaProps => ({
  anyOf: [{ type: 'integer' }, { type: 'string' }],
  'x-kubernetes-int-or-string': true,
});

const anyObject = (): JSONSchemaProps => ({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true });
const anyValue = (): JSONSchemaProps => ({ 'x-kubernetes-preserve-unknown-fields': true });

/**
 * Built-in types whose OpenAPI form is not a valid CRD schema (`oneOf` with types, untyped
 * JSON, opaque objects) or that controller-gen writes in a fixed form; their schema here
 * replaces the served one. The field's own description still applies.
 */
export const knownSchemas: Readonly<Record<string, () => JSONSchemaProps>> = {
  'io.k8s.apimachinery.pkg.api.resource.Quantity': () => ({ ...intOrString(), pattern: quantityPattern }),
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString': intOrString,
  'io.k8s.apimachinery.pkg.apis.meta.v1.Time': () => ({ format: 'date-time', type: 'string' }),
  'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime': () => ({ format: 'date-time', type: 'string' }),
  'io.k8s.apimachinery.pkg.runtime.RawExtension': anyObject,
  'io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1': anyObject,
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON': anyValue,
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrArray': anyValue,
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrBool': anyValue,
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrStringArray': anyValue,
};

/** ObjectMeta inside a built-in type (a template) keeps these fields; the API server sets the rest. */
export const objectMetaDefinition = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';
export const embeddedObjectMetaFields: readonly string[] = ['annotations', 'finalizers', 'labels', 'name', 'namespace'];

/**
 * Validations the Go types declare with kubebuilder markers, which controller-gen emits
 * but the served OpenAPI schema lacks; merged into the named properties.
 */
export const markerValidations: Readonly<Record<string, Readonly<Record<string, JSONSchemaProps>>>> = {
  'io.k8s.apimachinery.pkg.apis.meta.v1.Condition': {
    type: {
      maxLength: 316,
      pattern: '^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$',
    },
    status: { enum: ['True', 'False', 'Unknown'] },
    observedGeneration: { minimum: 0 },
    reason: { maxLength: 1024, minLength: 1, pattern: '^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$' },
    message: { maxLength: 32768 },
  },
};
