import type { CelRule, CelSchema } from './schema.js';

/**
 * What is wrong: `type` an expression the checker refuses (message from cel-js), `result` one
 * of the wrong result type (a rule not a bool, a messageExpression not a string), `oldSelf`
 * on a node without old values, `fieldPath` naming no field, `cost` over the API server's budget.
 */
export type CelProblemCode = 'type' | 'result' | 'oldSelf' | 'fieldPath' | 'cost';

/** A CEL rule the API server would refuse for its types. */
export interface CelTypeProblem {
  code: CelProblemCode;
  /** Data path of the node the rule is on (`spec.ports[*]`), '' for the root. */
  path: string;
  /** The schema node the rule is on. */
  node: CelSchema;
  rule: CelRule;
  /** Which expression is wrong. */
  field: 'rule' | 'messageExpression' | 'fieldPath';
  message: string;
  /** 1-based column in that expression, when known. */
  column?: number;
  /** What to change, when the problem says more than "the API server would reject this". */
  hint?: string;
}
