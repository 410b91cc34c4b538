/**
 * Validation of a custom object in the API server's order: the OpenAPI schema (ratcheted on
 * update), the scale subresource's paths, list-type uniqueness, then the CEL rules, which are skipped, with the API
 * server's note, when an earlier error makes the object unfit for them (a wrong type, a
 * missing required field, an unsupported enum value, too long, too many).
 *
 * @module
 */
import { validateRules } from './cel-eval/rules.js';
import { validateListTypes } from './list-types.js';
import { validateScale, type ScalePaths } from './scale.js';
import { validateStructural } from './value.js';
import { isObject, type CrdLike, type FieldError, type JsonObject, type SchemaNode } from './types.js';
import { versionSchema } from './versions.js';

export interface ValidateOptions {
  crd: CrdLike;
  version: string;
  /** The object after pruning, defaulting and the strategy (status/spec separation). */
  object: JsonObject;
  /** The stored object, on update. */
  oldObject?: JsonObject;
  /** `'status'` for a write to `/status`: only `status` is checked against the schema. */
  subresource?: '' | 'status';
  /** Errors found before (object metadata): they too keep CEL rules from running. */
  priorErrors?: FieldError[];
}

const BLOCKING: ReadonlySet<string> = new Set(['FieldValueNotSupported', 'FieldValueRequired', 'FieldValueTooLong', 'FieldValueTooMany', 'FieldValueTypeInvalid']);

export const RULES_NOT_CHECKED: FieldError = {
  type: 'FieldValueInvalid',
  field: '<nil>',
  value: 'null',
  detail: 'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
};

/**
 * The field errors the API server reports for `object`, in its order; empty when valid.
 *
 * @example
 * const errors = validateCustomObject({ crd, version: 'v1', object, oldObject: live });
 * if (errors.length > 0) throw invalid(kind, name, errors); // 422
 */
export function validateCustomObject({ crd, version, object, oldObject, subresource = '', priorErrors = [] }: ValidateOptions): FieldError[] {
  const schema = versionSchema(crd, version);
  const errors: FieldError[] = [];
  if (subresource === 'status') {
    const statusSchema = schema.properties?.status;
    if (statusSchema && object.status !== undefined) {
      const old = isObject(oldObject) ? oldObject.status : undefined;
      errors.push(...validateStructural(object.status, statusSchema, 'status', '', old));
      errors.push(...validateListTypes(object.status, statusSchema, 'status'));
    }
  } else {
    errors.push(...validateStructural(object, schema, '', '', oldObject));
  }
  const scale = crd.spec.versions.find((v) => v.name === version)?.subresources?.scale as ScalePaths | undefined;
  if (scale) errors.push(...validateScale(object, scale, subresource));
  if (subresource !== 'status') errors.push(...validateListTypes(object, schema));
  if (!hasRules(schema)) return errors;
  if ([...priorErrors, ...errors].some((error) => BLOCKING.has(error.type))) return [...errors, RULES_NOT_CHECKED];
  errors.push(...validateRules(object, oldObject, schema));
  return errors;
}

const withRules = new WeakMap<SchemaNode, boolean>();

/** Whether any node has `x-kubernetes-validations`: without any, the API server has no CEL validator to skip. */
function hasRules(schema: SchemaNode): boolean {
  let found = withRules.get(schema);
  if (found === undefined) {
    const children = [...Object.values(schema.properties ?? {}), schema.items, typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined];
    found = (schema['x-kubernetes-validations']?.length ?? 0) > 0 || children.some((child) => child !== undefined && hasRules(child));
    withRules.set(schema, found);
  }
  return found;
}
