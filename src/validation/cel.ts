import { CelSyntaxError } from './cel/lexer.js';
import { parseCel } from './cel/parser.js';
import { remembered } from './remembered.js';

/**
 * Checks the syntax of a CEL expression as the API server's parser would for an
 * `x-kubernetes-validations` rule or `messageExpression`: the CEL grammar plus the optional
 * syntax Kubernetes enables (`self.?field`, `list[?0]`) and cel-go's parse-time macro checks
 * (`has(self.a)`, `self.all(x, …)` with a simple variable name). Names and types are not
 * checked: `quantity(...)`, `url(...)`, `isSorted()` and friends are ordinary calls here.
 *
 * A rule that parsed is remembered by the built CLI (see remembered.ts).
 *
 * @returns `undefined` when the rule parses; otherwise the problem and the 1-based column
 *   (counted from the start of the rule) where it was found.
 */
export function checkCelRule(rule: string): { message: string; column?: number } | undefined {
  return remembered('cel-syntax', rule, () => parseRule(rule), (problem) => problem === undefined, undefined);
}

function parseRule(rule: string): { message: string; column?: number } | undefined {
  try {
    parseCel(rule);
    return undefined;
  } catch (error) {
    if (!(error instanceof CelSyntaxError)) throw error;
    return { message: error.message, column: [...rule.slice(0, error.offset)].length + 1 };
  }
}
