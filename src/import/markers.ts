/**
 * The markers that reproduce a schema node's keywords: the inverse of what
 * `src/schema/apply.ts` does with them. Strings are written in double quotes with JSON
 * escapes (the marker grammar reads them with JSON's rules), `*\/` escaped so that no value
 * ends the comment it stands in.
 *
 * @module
 */
import type { JSONSchemaProps, ValidationRule } from '../schema/types.js';

/** A string as a marker value: JSON-quoted, never closing a block comment. */
export function quote(value: string): string {
  return inComment(JSON.stringify(value));
}

/** JSON text made safe inside a block comment (`*\/` is a valid JSON escape of `/`). */
export function inComment(json: string): string {
  return json.replace(/\*\//g, '*\\/');
}

const validation = '+kubebuilder:validation:';

/** Keywords the walker reads back from the markers below. */
export const markedKeywords = new Set<keyof JSONSchemaProps>([
  'maximum', 'minimum', 'exclusiveMaximum', 'exclusiveMinimum', 'multipleOf', 'maxLength', 'minLength', 'pattern',
  'maxItems', 'minItems', 'uniqueItems', 'maxProperties', 'minProperties', 'format', 'default', 'example', 'title',
  'externalDocs', 'x-kubernetes-validations', 'x-kubernetes-list-type', 'x-kubernetes-list-map-keys', 'x-kubernetes-map-type',
  'x-kubernetes-preserve-unknown-fields', 'x-kubernetes-embedded-resource',
]);

/** The `kubebuilder:validation:items:` variants exist for these keywords only. */
const itemKeywords = new Set<keyof JSONSchemaProps>([
  'maximum', 'minimum', 'exclusiveMaximum', 'exclusiveMinimum', 'multipleOf', 'maxLength', 'minLength', 'pattern',
  'maxItems', 'minItems', 'uniqueItems', 'maxProperties', 'minProperties', 'format', 'x-kubernetes-validations',
]);

/** True when every keyword of `keys` can be written as an `items:` marker on the list's field. */
export function itemsCanCarry(keys: readonly (keyof JSONSchemaProps)[]): boolean {
  return keys.every((key) => itemKeywords.has(key));
}

/**
 * One marker line per keyword of `node` among `keys` (in the order the walker's output
 * lists them), `prefix` being `+kubebuilder:validation:` or its `items:` form.
 */
export function keywordMarkers(node: JSONSchemaProps, keys: readonly (keyof JSONSchemaProps)[], items = false): string[] {
  const v = items ? `${validation}items:` : validation;
  const out: string[] = [];
  for (const key of keys) {
    const value = node[key];
    switch (key) {
      case 'maximum': out.push(`${v}Maximum=${value}`); break;
      case 'minimum': out.push(`${v}Minimum=${value}`); break;
      case 'exclusiveMaximum': out.push(`${v}ExclusiveMaximum=${value}`); break;
      case 'exclusiveMinimum': out.push(`${v}ExclusiveMinimum=${value}`); break;
      case 'multipleOf': out.push(`${v}MultipleOf=${value}`); break;
      case 'maxLength': out.push(`${v}MaxLength=${value}`); break;
      case 'minLength': out.push(`${v}MinLength=${value}`); break;
      case 'pattern': out.push(`${v}Pattern=${quote(value as string)}`); break;
      case 'maxItems': out.push(`${v}MaxItems=${value}`); break;
      case 'minItems': out.push(`${v}MinItems=${value}`); break;
      case 'uniqueItems': out.push(`${v}UniqueItems=${value}`); break;
      case 'maxProperties': out.push(`${v}MaxProperties=${value}`); break;
      case 'minProperties': out.push(`${v}MinProperties=${value}`); break;
      case 'format': out.push(`${v}Format=${quote(value as string)}`); break;
      case 'x-kubernetes-validations': for (const rule of value as ValidationRule[]) out.push(`${v}XValidation:${ruleArgs(rule)}`); break;
      case 'default': out.push(`+default=${inComment(JSON.stringify(value))}`); break;
      case 'example': out.push(`@example ${inComment(JSON.stringify(value))}`); break;
      case 'title': out.push(`+kubebuilder:title=${quote(value as string)}`); break;
      case 'externalDocs': {
        const docs = value as { url?: string; description?: string };
        out.push(`+kubebuilder:externalDocs:url=${quote(docs.url ?? '')}${docs.description ? `,description=${quote(docs.description)}` : ''}`);
        break;
      }
      case 'x-kubernetes-list-type': out.push(`+listType=${value}`); break;
      case 'x-kubernetes-list-map-keys': for (const k of value as string[]) out.push(`+listMapKey=${k}`); break;
      case 'x-kubernetes-map-type': out.push(`${node.additionalProperties ? '+mapType' : '+structType'}=${value}`); break;
      case 'x-kubernetes-preserve-unknown-fields': if (value) out.push('+kubebuilder:pruning:PreserveUnknownFields'); break;
      case 'x-kubernetes-embedded-resource': if (value) out.push(`${validation}XEmbeddedResource`); break;
    }
  }
  return out;
}

function ruleArgs(rule: ValidationRule): string {
  const args = [`rule=${quote(rule.rule)}`];
  if (rule.message !== undefined) args.push(`message=${quote(rule.message)}`);
  if (rule.messageExpression !== undefined) args.push(`messageExpression=${quote(rule.messageExpression)}`);
  if (rule.reason !== undefined) args.push(`reason=${rule.reason}`);
  if (rule.fieldPath !== undefined) args.push(`fieldPath=${quote(rule.fieldPath)}`);
  if (rule.optionalOldSelf !== undefined) args.push(`optionalOldSelf=${rule.optionalOldSelf}`);
  return args.join(',');
}
