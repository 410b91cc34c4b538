import { inlineDefinition } from './builtins/inline.js';
import { definitionName } from './builtins/names.js';
import type { JSONSchemaProps } from './types.js';

const memo = new Map<string, JSONSchemaProps>();

/**
 * The CRD schema of a Kubernetes built-in type, for API fields typed with a
 * `@kubernetes/client-node` model (`V1PodTemplateSpec`, `V1ResourceRequirements`,
 * `V1Condition`, `RbacV1Subject`, …) or named by OpenAPI definition
 * (`io.k8s.api.core.v1.PodTemplateSpec`): exactly the schema controller-gen v0.21 writes for
 * the same Go type of the `k8s.io/api` version opgen pins (src/data/builtins.json), fully
 * inlined and structural, except that an embedded ObjectMeta keeps `name`, `namespace`,
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
  return copyPlain(schema);
}

/**
 * A deep copy of plain JSON data. A pod template's schema is about 330 kB of JSON, copied
 * once per field that uses it; this is six times faster than `structuredClone` on it.
 */
function copyPlain<T>(value: T): T {
  if (Array.isArray(value)) return value.map(copyPlain) as T;
  if (value === null || typeof value !== 'object') return value;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) copy[key] = copyPlain((value as Record<string, unknown>)[key]);
  return copy as T;
}
