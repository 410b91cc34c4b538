/**
 * Data paths for schema problems, in the form users read in `kubectl explain`:
 * `spec.template.containers[*].ports`. The root is the empty string; `[*]` stands for any
 * array item or map value, `[2]` for one item.
 */

/** One problem found in a schema or a value, at a data path. */
export interface SchemaProblem {
  path: string;
  message: string;
}

/** The path of a named property under `path`. */
export function propertyPath(path: string, name: string): string {
  if (!/^[A-Za-z_$][\w$-]*$/.test(name)) return `${path}[${JSON.stringify(name)}]`;
  return path === '' ? name : `${path}.${name}`;
}

/** The path of every item (or map value) under `path`, or of item `index`. */
export function itemPath(path: string, index?: number): string {
  return `${path}[${index ?? '*'}]`;
}
