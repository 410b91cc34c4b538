/**
 * Go's fmt verbs on a structured-merge-diff value (`*value.valueUnstructured` around what
 * JSON decodes to: string, bool, int64 or float64, []interface{}, map[string]interface{}),
 * as the API server prints them in the errors of an applied configuration's typed conversion.
 *
 * @module
 */
import type { Json } from '../../../internal/semantics/types.js';

/** Go's %v of a float64, or of an int64 (a whole JSON number below 2^63 decodes to one). */
function number(value: number): string {
  if (Number.isInteger(value) && Math.abs(value) < 2 ** 63) return BigInt(value).toString();
  if (Math.abs(value) >= 1e21 || (value !== 0 && Math.abs(value) < 1e-4)) return value.toExponential().replace(/e([+-])(\d)$/, 'e$10$2');
  return String(value);
}

/** %v of the value itself. */
function plain(value: Json): string {
  if (value === null) return '<nil>';
  if (typeof value === 'number') return number(value);
  if (typeof value !== 'object') return String(value);
  if (Array.isArray(value)) return `[${value.map(plain).join(' ')}]`;
  return `map[${Object.keys(value).sort().map((key) => `${key}:${plain(value[key]!)}`).join(' ')}]`;
}

/** %#v of the value itself. */
function sharp(value: Json): string {
  if (value === null) return 'interface {}(nil)';
  if (typeof value === 'number') return number(value);
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[]interface {}{${value.map(sharp).join(', ')}}`;
  return `map[string]interface {}{${Object.keys(value).sort().map((key) => `${JSON.stringify(key)}:${sharp(value[key]!)}`).join(', ')}}`;
}

/** `%v` of the wrapped value: `&{…}`. */
export function goValueV(value: Json): string {
  return `&{${plain(value)}}`;
}

/** `%#v` of the wrapped value. */
export function goValueSharp(value: Json): string {
  return `&value.valueUnstructured{Value:${sharp(value)}}`;
}

/** `%T` of the value itself. */
export function goType(value: Json): string {
  if (value === null) return '<nil>';
  if (typeof value === 'number') return Number.isInteger(value) && Math.abs(value) < 2 ** 63 ? 'int64' : 'float64';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'bool';
  return Array.isArray(value) ? '[]interface {}' : 'map[string]interface {}';
}
