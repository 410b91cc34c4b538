/**
 * The schemas of the types API files import from `@opgen/runtime/api`, recognised by name.
 *
 * @module
 */
import { quantityPattern } from './builtins/known.js';
import { runtimeKubernetesTypes } from './runtime-kubernetes.js';
import type { JSONSchemaProps } from './types.js';

const intOrString = (): JSONSchemaProps => ({
  anyOf: [{ type: 'integer' }, { type: 'string' }],
  'x-kubernetes-int-or-string': true,
});

const stringMap = (): JSONSchemaProps => ({ type: 'object', additionalProperties: { type: 'string' } });

/**
 * ObjectMeta embedded below the root (a pod template's metadata): the fields a template
 * may set, kept rather than pruned.
 */
export function embeddedObjectMeta(): JSONSchemaProps {
  return {
    type: 'object',
    properties: {
      annotations: stringMap(),
      finalizers: { type: 'array', items: { type: 'string' } },
      labels: stringMap(),
      name: { type: 'string' },
      namespace: { type: 'string' },
    },
  };
}

/** Runtime types that are the client's models of the same name with a `V1` prefix. */
const runtimeBuiltins: Readonly<Record<string, string>> = {
  Condition: 'V1Condition',
  ObjectReference: 'V1ObjectReference',
  LocalObjectReference: 'V1LocalObjectReference',
  OwnerReference: 'V1OwnerReference',
  ManagedFieldsEntry: 'V1ManagedFieldsEntry',
  ListMeta: 'V1ListMeta',
};

/**
 * The client model or OpenAPI definition a runtime API type stands for when it is a
 * Kubernetes type (`Condition`, `PodTemplateSpec`), so it reads exactly as that model does.
 */
export function runtimeBuiltin(name: string): string | undefined {
  if (Object.hasOwn(runtimeBuiltins, name)) return runtimeBuiltins[name];
  if (Object.hasOwn(runtimeKubernetesTypes, name)) return runtimeKubernetesTypes[name];
  return undefined;
}

/** The schema of a non-generic runtime API type, or undefined when it is not one. */
export function runtimeSchema(name: string): JSONSchemaProps | undefined {
  switch (name) {
    case 'int32':
      return { type: 'integer', format: 'int32' };
    case 'int64':
      return { type: 'integer', format: 'int64' };
    case 'integer':
      return { type: 'integer' };
    case 'Quantity':
      return { ...intOrString(), pattern: quantityPattern };
    case 'IntOrString':
      return intOrString();
    case 'Time':
    case 'MicroTime':
      return { type: 'string', format: 'date-time' };
    case 'Duration':
      return { type: 'string' };
    case 'Bytes':
      return { type: 'string', format: 'byte' };
    case 'RawExtension':
      return { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
    case 'JSONValue':
      return { 'x-kubernetes-preserve-unknown-fields': true };
    case 'ObjectMeta':
      return embeddedObjectMeta();
    case 'TypeMeta':
      return { type: 'object', properties: { apiVersion: { type: 'string' }, kind: { type: 'string' } } };
    case 'ConditionStatus':
      // As controller-gen for corev1/metav1.ConditionStatus: the enum sits on Condition.status, not on the type.
      return { type: 'string' };
    default:
      return undefined;
  }
}
