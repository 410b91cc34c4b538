import { inlineDefinition } from './builtins/inline.js';
import { definitionName } from './builtins/names.js';
import type { JSONSchemaProps } from './types.js';

const memo = new Map<string, JSONSchemaProps>();

/**
 * The CRD schema of a Kubernetes built-in type, for API fields typed with a
 * `@kubernetes/client-node` model (`V1PodTemplateSpec`, `V1ResourceRequirements`,
 * `V1Condition`, `RbacV1Subject`, …) or named by OpenAPI definition
 * (`io.k8s.api.core.v1.PodTemplateSpec`): exactly the schema controller-gen v0.21 writes for
 * the same Go type of the `k8s.io/api` version opgen pins (src/data/builtins.jsonl), fully
 * inlined and structural, except that an embedded ObjectMeta keeps `name`, `namespace`,
 * `labels`, `annotations` and `finalizers`.
 *
 * @returns a schema whose root is the caller's to change and whose child schemas are shared
 *   and frozen (src/schema/shared.ts), or `undefined` for an unknown (or ambiguous, e.g.
 *   `V1Subject`) name.
 */
export function builtinSchema(typeName: string): JSONSchemaProps | undefined {
  let schema = memo.get(typeName);
  if (!schema) {
    const definition = definitionName(typeName);
    if (!definition) return undefined;
    schema = inlineDefinition(definition);
    memo.set(typeName, schema);
  }
  // A pod template's schema is about 330 kB of JSON: sharing it beats copying it for every field.
  return { ...schema };
}
