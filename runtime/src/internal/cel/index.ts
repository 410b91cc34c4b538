/**
 * Not part of opgen's public API: the CEL front end shared by the opgen CLI (`opgen manifests`
 * refuses rules the API server would refuse) and the memory cluster (which refuses such a CRD
 * as the API server does). Type checking of `x-kubernetes-validations` against the schema,
 * the API server's cost estimate and budgets, and RE2 regular expressions (for `pattern` and
 * CEL's regex functions). Its shape may change in any release.
 *
 * @example
 * import { analyzeCel, perRuleCostLimit } from '@opgen/runtime/internal/cel';
 * const { problems, budget } = analyzeCel(crd.spec.versions[0].schema.openAPIV3Schema);
 * const tooExpensive = budget.report().over; // each over perRuleCostLimit
 *
 * @module
 */
export { analyzeCel, checkCelTypes } from './check.js';
export type { CelProblemCode, CelTypeProblem } from './problem.js';
export { exceedFactor, perCrdCostLimit, perRuleCostLimit, type CostReport, type ExpressionCost } from './cost-budget.js';
export { celName, schemaTypes, type SchemaTypes } from './schema-types.js';
export type { CelRule, CelSchema } from './schema.js';
export { compileRe2, type Re2 } from './re2.js';
export { fieldPathFindings, type FieldPathFinding } from './field-path.js';
