/**
 * `allOf`, `anyOf`, `oneOf` and `not` checked on a value, with kube-openapi's notes
 * (`"spec.address" must validate one and only one schema (oneOf). Found 2 valid
 * alternatives`). Each clause is checked by the schema validator ({@link validateStructural})
 * and, in turn, for its own combinators. The errors of a failing `anyOf` or `oneOf` clause are
 * not reported (kube-openapi picks the "best" failing clause by a match count not reproduced
 * here), so only the notes and `allOf`'s clause errors are.
 *
 * Used by the CLI (defaults, examples, samples, bundles). The memory cluster does not check
 * combinators yet: runtime/test/memory/differential/gaps.ts ("oneOf in a schema is enforced")
 * waits for these notes to be proven against kube-apiserver.
 *
 * @module
 */
import { forEachChild, goQuote } from './paths.js';
import type { FieldError, Json, SchemaNode } from './types.js';
import { validateStructural } from './value.js';

/**
 * The combinator errors of `value` under `schema`, at every depth; `path` prefixes their paths.
 *
 * @example
 * validateCombinators({ a: 1, b: 2 }, { type: 'object', oneOf: [{ required: ['a'] }, { required: ['b'] }] });
 * // [{ type: 'FieldValueInvalid', field: '<nil>', value: '""', detail: '"" must validate one and only one schema (oneOf). Found 2 valid alternatives', check: { keyword: 'oneOf', actual: 2, field: '' } }]
 */
export function validateCombinators(value: Json, schema: SchemaNode, path = ''): FieldError[] {
  const errors: FieldError[] = [];
  walk(value, schema, path, errors);
  return errors;
}

function walk(value: Json, schema: SchemaNode | undefined, path: string, errors: FieldError[]): void {
  if (!schema) return;
  checkNode(value, schema, path, errors);
  forEachChild(value, schema, path, (child, childSchema, at) => walk(child, childSchema, at, errors));
}

/** Every error of `value` under one clause: the schema validator's and the clause's own combinators'. */
function clauseErrors(value: Json, clause: SchemaNode, path: string): FieldError[] {
  return [...validateStructural(value, clause, path, path), ...validateCombinators(value, clause, path)];
}

function checkNode(value: Json, schema: SchemaNode, path: string, errors: FieldError[]): void {
  const note = (keyword: string, detail: string, actual?: Json) =>
    errors.push({ type: 'FieldValueInvalid', field: '<nil>', value: '""', detail: `${goQuote(path)} ${detail}`, check: { keyword, actual, field: path } });
  const allOf = (schema.allOf ?? []).map((clause) => clauseErrors(value, clause, path));
  if (allOf.some((found) => found.length > 0)) {
    errors.push(...allOf.flat());
    note('allOf', 'must validate all the schemas (allOf)');
  }
  // int-or-string's anyOf only restates the type, which the schema validator checks.
  if (schema.anyOf && !(schema['x-kubernetes-int-or-string'] === true && isIntOrStringAnyOf(schema.anyOf))) {
    if (schema.anyOf.every((clause) => clauseErrors(value, clause, path).length > 0)) note('anyOf', 'must validate at least one schema (anyOf)');
  }
  if (schema.oneOf) {
    const valid = schema.oneOf.filter((clause) => clauseErrors(value, clause, path).length === 0).length;
    if (valid !== 1) note('oneOf', `must validate one and only one schema (oneOf)${valid > 1 ? `. Found ${valid} valid alternatives` : ''}`, valid);
  }
  if (schema.not && clauseErrors(value, schema.not, path).length === 0) note('not', 'must not validate the schema (not)');
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
