import { inlineDefinition } from './builtins/inline.js';
import { definitionName } from './builtins/names.js';
import type { JSONSchemaProps } from './types.js';

const memo = new Map<string, JSONSchemaProps>();

/**
 * The CRD schema of a Kubernetes built-in type, for API fields typed with a
 * `@kubernetes/client-node` model (`V1PodTemplateSpec`, `V1ResourceRequirements`,
 * `V1Condition`, `RbacV1Subject`, …) or named by OpenAPI definition
 * (`io.k8s.api.core.v1.PodTemplateSpec`): the official OpenAPI schema of the Kubernetes
 * version opgen pins, fully inlined and structural. Quantities and int-or-strings take the
 * form controller-gen writes, `Time` is a date-time string, `RawExtension` an object that
 * preserves unknown fields, and an embedded ObjectMeta keeps `name`, `namespace`,
 * `labels`, `annotations` and `finalizers`.
 *
 * @returns a fresh copy the caller may change, or `undefined` for an unknown (or
 *   ambiguous, e.g. `V1Subject`) name.
 */
export function builtinSchema(typeName: string): JSONSchemaProps | undefined {
  let schema = memo.get(typeName);
  if (!schema) {
    const definition = definitionName(typeName);
    if (!definition) return undefined;
    schema = inlineDefinition(definition);
    memo.set(typeName, schema);
  }
  return structuredClone(schema);
}
