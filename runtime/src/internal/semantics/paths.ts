/**
 * Field paths as apimachinery's `field.Path` prints them: `spec.ports[0].name`, map keys in
 * brackets (`spec.labels[app]`), and `<nil>` for the empty path.
 *
 * @module
 */

import { isObject, type Json, type SchemaNode } from './types.js';

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

/**
 * Calls `visit` for each item of an array or each field of an object in `value`, with the
 * schema that applies to it (items, the property, else `additionalProperties`) and its path.
 *
 * @example
 * forEachChild({ a: 1 }, schema, 'spec', (child, childSchema, at) => walk(child, childSchema, at)); // at: 'spec.a'
 */
export function forEachChild(value: Json, schema: SchemaNode, path: string, visit: (child: Json, schema: SchemaNode | undefined, path: string) => void): void {
  if (Array.isArray(value)) {
    value.forEach((item, i) => visit(item, schema.items, index(path, i)));
    return;
  }
  if (!isObject(value)) return;
  const additional = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
  for (const [name, item] of Object.entries(value)) visit(item, schema.properties?.[name] ?? additional, child(path, name));
}
