import { UserError } from '../errors.js';
import type { MarkerCheck } from '../schema/checks.js';
import { checkCelRule } from './cel.js';
import { validateValue } from './value.js';

const celDocs = 'see https://kubernetes.io/docs/reference/using-api/cel/';

/**
 * Checks what the markers of a finished walk wrote: each default and example is a valid
 * value of its field, each CEL rule and messageExpression parses. Errors sit at the marker;
 * a rule's syntax error at its column inside the marker.
 */
export function checkMarkerValues(checks: readonly MarkerCheck[]): UserError[] {
  const errors: UserError[] = [];
  for (const check of checks) {
    const { marker } = check;
    if (check.kind === 'value') {
      const problem = validateValue(check.node, check.value)[0];
      if (!problem) continue;
      const text = problem.path ? `${problem.path} ${problem.message}` : problem.message;
      const hint = check.keyword === 'default' ? 'a default must be a valid value of the field' : undefined;
      errors.push(new UserError(`${marker.text}: the ${check.keyword} is invalid: ${text}`, marker.location, hint));
      continue;
    }
    const problem = checkCelRule(check.expression);
    if (!problem) continue;
    if (check.field === 'messageExpression') {
      errors.push(new UserError(`invalid CEL messageExpression: ${problem.message}`, marker.location));
      continue;
    }
    const start = marker.text.indexOf(check.expression);
    const column = (marker.location.column ?? 1) + (start >= 0 ? start : 0) + (problem.column ?? 1) - 1;
    errors.push(new UserError(`invalid CEL rule: ${problem.message}`, { ...marker.location, column }, celDocs));
  }
  return errors;
}
