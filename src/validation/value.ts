import {
  errorBody,
  validateListTypes,
  validateStructural,
  type FieldError,
  type Json,
  type SchemaNode,
} from '@opgen/runtime/internal/semantics';
import type { JSONSchemaProps } from '../schema/types.js';
import type { SchemaProblem } from './path.js';

/**
 * Validates a JSON value against a CRD schema the way the API server's schema validator
 * does for custom resources: the semantics core's checks (the memory cluster's), worded as
 * the CLI's one-line problems (`must be of type integer, got string`). Types (with `nullable`
 * and int-or-string), `enum`, numeric and length limits, `pattern`, checked formats,
 * `required`, item and property counts, list-set and list-map uniqueness,
 * `allOf`/`anyOf`/`oneOf`/`not`, and the `apiVersion`/`kind` an embedded resource must
 * carry. CEL rules are not evaluated, and unknown fields are not errors (the API server
 * prunes them).
 *
 * @param path the data path of `value`, prefixed to every problem.
 */
export function validateValue(schema: JSONSchemaProps, value: unknown, path = ''): SchemaProblem[] {
  const node = schema as SchemaNode;
  const json = value as Json;
  const errors = [...validateStructural(json, node, path, path), ...validateListTypes(json, node, path)];
  return errors.flatMap((error) => (error.check ? [{ path: error.check.field ?? (error.field === '<nil>' ? '' : error.field), message: phrase(error) }] : []));
}

/** The CLI's words for a core error that carries its check (the others are notes beside one that does). */
export function phrase(error: FieldError): string {
  const { keyword, limit, actual } = error.check!;
  const show = (json: Json | undefined) => JSON.stringify(json);
  switch (keyword) {
    case 'type':
      return `must be of type ${String(limit)}, got ${String(actual)}`;
    case 'x-kubernetes-int-or-string':
      return `must be an integer or a string, got ${String(actual)}`;
    case 'format':
      return `must be in ${String(limit)} format, got ${show(actual)}`;
    case 'enum':
      return `must be one of ${(limit as Json[]).map(show).join(', ')}, got ${show(actual)}`;
    case 'minLength':
      return `must be at least ${String(limit)} characters long, got ${String(actual)}`;
    case 'maxLength':
      return `must be at most ${String(limit)} characters long, got ${String(actual)}`;
    case 'pattern':
      return `must match the pattern ${String(limit)}, got ${show(actual)}`;
    case 'minimum':
      return `must be greater than or equal to ${String(limit)}, got ${String(actual)}`;
    case 'exclusiveMinimum':
      return `must be greater than ${String(limit)}, got ${String(actual)}`;
    case 'maximum':
      return `must be less than or equal to ${String(limit)}, got ${String(actual)}`;
    case 'exclusiveMaximum':
      return `must be less than ${String(limit)}, got ${String(actual)}`;
    case 'multipleOf':
      return `must be a multiple of ${String(limit)}, got ${String(actual)}`;
    case 'minItems':
      return `must have at least ${String(limit)} items, got ${String(actual)}`;
    case 'maxItems':
      return `must have at most ${String(limit)} items, got ${String(actual)}`;
    case 'minProperties':
      return `must have at least ${String(limit)} properties, got ${String(actual)}`;
    case 'maxProperties':
      return `must have at most ${String(limit)} properties, got ${String(actual)}`;
    case 'required':
      return 'is required';
    case 'x-kubernetes-embedded-resource':
      return 'is required in an embedded resource';
    case 'x-kubernetes-list-type':
      if (error.type !== 'FieldValueDuplicate') return `must be an object in a list of x-kubernetes-list-type map, got ${show(actual)}`;
      return limit === 'set' ? `duplicate item ${show(actual)}` : `duplicate entry for the keys ${show(actual)}`;
    case 'allOf':
      return 'must match all the schemas of allOf';
    case 'anyOf':
      return 'must match at least one schema of anyOf';
    case 'oneOf':
      return `must match exactly one schema of oneOf, matches ${String(actual)}`;
    case 'not':
      return 'must not match the schema in not';
    default:
      // A check the core learned after this table: the API server's own words.
      return errorBody(error);
  }
}
