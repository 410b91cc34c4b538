/**
 * What apiextensions-apiserver refuses in a CRD's CEL rules once its schema is structural:
 * rules that do not type-check against the schema, of the wrong result type, or over the
 * cost budget (one expression's estimate times how often it may run over 10 million, all
 * rules of a version over 100 million). The type checker and the cost estimate are the ones
 * `opgen manifests` runs (`@opgen/runtime/internal/cel`); this file words their findings as
 * the API server's field errors.
 *
 * @module
 */
import { analyzeCel, exceedFactor, perCrdCostLimit, perRuleCostLimit, type CelSchema } from '../cel/index.js';
import type { FieldError, SchemaNode, ValidationRule as Rule } from './types.js';

const COST_HINT = '(try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)';

/**
 * The CEL refusals of one version's schema at `rootPath` (`spec.validation.openAPIV3Schema`).
 *
 * @example
 * celSchemaErrors(schema, 'spec.validation.openAPIV3Schema'); // [{ type: 'FieldValueInvalid', field: '….x-kubernetes-validations[0].rule', detail: 'cel expression must evaluate to a bool', … }]
 */
export function celSchemaErrors(root: SchemaNode, rootPath: string): FieldError[] {
  const paths = new Map<CelSchema, string>();
  index(root, rootPath, paths);
  const at = (node: CelSchema, rule: Rule, field: string): string => `${paths.get(node) ?? rootPath}.x-kubernetes-validations[${(node['x-kubernetes-validations'] ?? []).indexOf(rule)}].${field}`;
  const errors: FieldError[] = [];
  const { problems, budget } = analyzeCel(root);
  for (const problem of problems) {
    // oldSelf and fieldPath are checked by the admission itself, with the API server's words.
    if (problem.code !== 'type' && problem.code !== 'result') continue;
    const prefix = problem.field === 'messageExpression' ? 'messageExpression ' : '';
    const detail =
      problem.code === 'result'
        ? problem.field === 'rule'
          ? 'cel expression must evaluate to a bool'
          : 'messageExpression must evaluate to a string'
        : `${prefix}compilation failed: ${problem.message}`;
    errors.push({ type: 'FieldValueInvalid', field: at(problem.node, problem.rule, problem.field), value: printedRule(problem.rule), detail });
  }
  const { over, total, mostExpensive } = budget.report();
  for (const expensive of over) {
    const what = expensive.field === 'rule' ? 'rule' : 'messageExpression';
    errors.push({ type: 'FieldValueForbidden', field: at(expensive.node, expensive.rule, expensive.field), detail: `estimated ${what} cost exceeds budget by factor of ${exceedFactor(expensive.cost, perRuleCostLimit)} ${COST_HINT}` });
  }
  if (total > perCrdCostLimit) {
    for (const expensive of mostExpensive) {
      errors.push({ type: 'FieldValueForbidden', field: at(expensive.node, expensive.rule, expensive.field), detail: 'contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema' });
    }
    errors.push({
      type: 'FieldValueForbidden',
      field: rootPath,
      detail: `x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of ${exceedFactor(total, perCrdCostLimit)} ${COST_HINT}`,
    });
  }
  return errors;
}

/** The API server's field path of every schema node: `….properties[spec].items`. */
function index(node: SchemaNode, path: string, paths: Map<CelSchema, string>): void {
  paths.set(node, path);
  for (const [name, child] of Object.entries(node.properties ?? {})) index(child, `${path}.properties[${name}]`, paths);
  if (typeof node.additionalProperties === 'object') index(node.additionalProperties, `${path}.additionalProperties`, paths);
  if (node.items) index(node.items, `${path}.items`, paths);
}

/** The rule as Go prints the internal ValidationRule struct. */
export function printedRule(rule: Rule): string {
  const json = JSON.stringify({ Rule: rule.rule, Message: rule.message ?? '', MessageExpression: rule.messageExpression ?? '', Reason: rule.reason ?? null, FieldPath: rule.fieldPath ?? '', OptionalOldSelf: rule.optionalOldSelf ?? null });
  // Go's encoding/json escapes <, > and & (and the line separators) for HTML: `self \u003e 0`.
  return json.replace(/[<>&\u2028\u2029]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
