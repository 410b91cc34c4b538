/**
 * Field paths as apimachinery's `field.Path` prints them: `spec.ports[0].name`, map keys in
 * brackets (`spec.labels[app]`), and `<nil>` for the empty path.
 *
 * @module
 */

export function child(path: string, name: string): string {
  return path === '' ? name : `${path}.${name}`;
}

export function index(path: string, i: number | string): string {
  return `${path}[${i}]`;
}

/** The printed path, `<nil>` when empty (the root object). */
export function printed(path: string): string {
  return path === '' ? '<nil>' : path;
}

/**
 * How `field.Error` prints a bad value: strings quoted as Go's %q, integers and floats as
 * Go's %v, booleans bare, nil as `null`, anything else as JSON.
 */
export function goValue(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return goQuote(value);
  if (typeof value === 'number') return goNumber(value);
  if (typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value);
}

/** Go's %v of a float64 or int64 decoded from JSON (exponent form from 1e21, as Go's %v). */
export function goNumber(value: number): string {
  if (Number.isInteger(value) && Math.abs(value) < 1e21) return String(value);
  const text = String(value);
  return text.replace(/e([+-])(\d)$/, 'e$10$2');
}

/** Go's %q: JSON's escaping is the same for the characters CRD values carry. */
export function goQuote(text: string): string {
  return JSON.stringify(text);
}
