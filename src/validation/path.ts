/**
 * Problems found in a schema or a value, at a data path in the form users read in
 * `kubectl explain` (`spec.template.containers[*].ports`; the root is the empty string).
 */

/** One problem found in a schema or a value, at a data path. */
export interface SchemaProblem {
  path: string;
  message: string;
}
