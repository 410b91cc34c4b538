/**
 * `allOf`, `anyOf`, `oneOf` and `not` checked on a value as kube-openapi's schema-props
 * validator does (the API server's validator for custom objects): a note per failed junctor
 * (`"spec.address" must validate one and only one schema (oneOf). Found 2 valid
 * alternatives`), every failing `allOf` clause's errors, and, when no `anyOf` or `oneOf`
 * clause validates, the errors of the "best" failing clause: the one with the highest match
 * count (the number of validators that ran on it, see {@link ClauseResult}), the first on a
 * tie. Clauses are validated in full even on update: the API server does not ratchet inside
 * a junctor, only the node that holds it (unchanged, it is not checked at all).
 *
 * The schema validator (value.ts) calls {@link junctorErrors} for each node, after the type
 * check as kube-openapi does, and hands it the clause validation as a callback, so this file
 * does not import it.
 *
 * @module
 */
import { goQuote } from './paths.js';
import type { FieldError, Json, SchemaNode } from './types.js';

/**
 * One clause validated at the node's own path: its errors, and kube-openapi's `MatchCount`
 * (one per validator that applied, plus those of the values below), which picks the clause
 * whose errors are reported when none validates.
 */
export interface ClauseResult {
  errors: FieldError[];
  count: number;
}

/**
 * The junctor errors of a value at `path` (`body`: the path kube-openapi names in its notes;
 * `root`: the field a note is reported at, `<nil>` for the object), with the match count the
 * schema-props validator adds to its node's.
 *
 * @example
 * const schema = { type: 'object', oneOf: [{ required: ['a'] }, { required: ['b'] }] };
 * junctorErrors(schema, 'spec.x', 'spec.x', '<nil>', (clause) => validateClause(value, clause));
 * // errors: [{ type: 'FieldValueInvalid', field: '<nil>', value: '""', detail: '"spec.x" must validate one and only one schema (oneOf). Found 2 valid alternatives', … }]
 */
export function junctorErrors(schema: SchemaNode, path: string, body: string, root: string, validate: (clause: SchemaNode) => ClauseResult): ClauseResult {
  const errors: FieldError[] = [];
  let count = 1;
  const note = (keyword: string, detail: string, actual?: Json) =>
    errors.push({ type: 'FieldValueInvalid', field: root, value: '""', detail: `${goQuote(body)} ${detail}`, check: { keyword, actual, field: path } });
  // int-or-string's own anyOf is reported with its type error (value.ts), as one union.
  const anyOf = schema['x-kubernetes-int-or-string'] === true && isIntOrStringAnyOf(schema.anyOf) ? undefined : schema.anyOf;
  if (anyOf && anyOf.length > 0) {
    let best: ClauseResult | undefined;
    let success: ClauseResult | undefined;
    for (const clause of anyOf) {
      const result = validate(clause);
      if (result.errors.length === 0) {
        success = result;
        best = undefined;
        break;
      }
      if (!best || result.count > best.count) best = result;
    }
    if (!success) note('anyOf', 'must validate at least one schema (anyOf)');
    const merged = best ?? success!;
    errors.push(...merged.errors);
    count += merged.count;
  }
  if (schema.oneOf && schema.oneOf.length > 0) {
    let best: ClauseResult | undefined;
    let first: ClauseResult | undefined;
    let valid = 0;
    for (const clause of schema.oneOf) {
      const result = validate(clause);
      if (result.errors.length === 0) {
        valid++;
        first ??= result;
        best = undefined;
      } else if (valid === 0 && (!best || result.count > best.count)) {
        best = result;
      }
    }
    if (valid !== 1) {
      note('oneOf', `must validate one and only one schema (oneOf). ${valid === 0 ? 'Found none valid' : `Found ${valid} valid alternatives`}`, valid);
      if (best) {
        errors.push(...best.errors);
        count += best.count;
      }
    } else {
      count += first!.count;
    }
  }
  if (schema.allOf && schema.allOf.length > 0) {
    let valid = 0;
    for (const clause of schema.allOf) {
      const result = validate(clause);
      if (result.errors.length === 0) valid++;
      errors.push(...result.errors);
      count += result.count;
    }
    if (valid !== schema.allOf.length) note('allOf', `must validate all the schemas (allOf)${valid === 0 ? '. None validated' : ''}`);
  }
  if (schema.not && validate(schema.not).errors.length === 0) note('not', 'must not validate the schema (not)');
  return { errors, count };
}

/**
 * `anyOf: [{type: integer}, {type: string}]` and nothing else in either branch: the one
 * place (with int-or-string) where a type may appear inside `anyOf`.
 *
 * @example
 * isIntOrStringAnyOf([{ type: 'integer' }, { type: 'string' }]); // true
 */
export function isIntOrStringAnyOf(anyOf: readonly SchemaNode[] | undefined): boolean {
  if (!anyOf || anyOf.length !== 2) return false;
  const [first, second] = anyOf;
  const onlyType = (s: SchemaNode | undefined, type: string) => s !== undefined && Object.keys(s).length === 1 && s.type === type;
  return onlyType(first, 'integer') && onlyType(second, 'string');
}
