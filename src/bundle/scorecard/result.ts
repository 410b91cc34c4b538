/** How a scorecard check ended: passed, failed, or could not run. */
export type CheckState = 'pass' | 'fail' | 'error';

/** One check's outcome, as operator-sdk's scorecard reports it. */
export interface CheckResult {
  name: string;
  suite: 'basic' | 'olm';
  state: CheckState;
  errors: string[];
  suggestions: string[];
  log: string;
}

/** A result that starts as a pass; `fail` and `suggest` add to it. */
export function newResult(name: string, suite: CheckResult['suite']): CheckResult {
  return { name, suite, state: 'pass', errors: [], suggestions: [], log: '' };
}

/** Records an error and fails the check (an `error` state stays one). */
export function fail(result: CheckResult, message: string, suggestion?: string): void {
  result.errors.push(message);
  if (suggestion) result.suggestions.push(suggestion);
  if (result.state === 'pass') result.state = 'fail';
}
