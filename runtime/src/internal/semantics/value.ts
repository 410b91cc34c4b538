/**
 * Validation of a custom object against its structural schema, with the messages and field
 * paths of the API server's OpenAPI validator (kube-openapi's fork of go-openapi's validate):
 * `spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer:
 * "string"`. On update (`old` given) a value equal to the old one at the same place is not
 * validated (the API server's ratcheting: what was stored stays valid when a schema tightens);
 * places are correlated through properties, map keys and `list-type: map` keys. `bodyPath` is the path the validator's messages name: the object's path, or the
 * path below `status` when the status subresource is validated on its own.
 *
 * @module
 */
import { compileRe2 } from '../cel/index.js';
import { matchesFormat } from './formats.js';
import { goNumber, goQuote, goValue } from './paths.js';
import { deepEqual, isObject, type FieldError, type Json, type SchemaNode } from './types.js';

/**
 * The structural schema's errors for `value` (the whole object, or `status` with `path`
 * `status` and `bodyPath` ''), in the validator's order for each node.
 *
 * @example
 * validateStructural(object, schema); // [{ type: 'FieldValueRequired', field: 'spec.name' }]
 */
export function validateStructural(value: Json, schema: SchemaNode, path = '', bodyPath = '', old?: Json): FieldError[] {
  const errors: FieldError[] = [];
  node(value, old, schema, path, bodyPath, errors);
  return errors;
}

function jsonType(value: Json): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  // Go decodes a JSON number as int64 when it is whole and fits, else as float64.
  if (typeof value === 'number') return Number.isInteger(value) && Math.abs(value) < 2 ** 63 ? 'integer' : 'number';
  if (typeof value === 'object') return 'object';
  return typeof value;
}

function inBody(bodyPath: string): string {
  return `${bodyPath} in body`;
}

function node(value: Json, old: Json | undefined, schema: SchemaNode, path: string, body: string, errors: FieldError[]): void {
  if (old !== undefined && deepEqual(value, old)) return;
  const fieldPath = path === '' ? '<nil>' : path;
  if (value === null && schema.nullable === true) return;
  const actual = jsonType(value);
  if (schema['x-kubernetes-int-or-string'] === true) {
    intOrString(value, fieldPath, body, errors);
    // A value of either type is still checked by the validators of its kind (a pattern on the string).
    if (actual !== 'integer' && actual !== 'string') return;
  } else if (schema.format && schema.type !== 'integer' && schema.type !== 'number' && actual === 'array') {
    // kube-openapi's type validator passes a list in a formatted non-numeric field (a slice
    // is taken for a formatted value); the other validators still run.
  } else if (schema.type !== undefined && !typeMatches(schema.type, actual)) {
    if (schema.type === 'integer' && actual === 'number') {
      const format = schema.format === 'int32' || schema.format === 'int64' ? schema.format : undefined;
      errors.push({ type: 'FieldValueTypeInvalid', field: fieldPath, value: format ? '"float64"' : '"number"', detail: `${inBody(body)} must be of type ${format ?? 'integer'}: ${format ? '"float64"' : '"number"'}`, check: { keyword: 'type', limit: 'integer', actual } });
      errors.push({ type: 'FieldValueInvalid', field: '<nil>', value: '""', detail: `Checked value must be of type integer ${format ? `with format ${format}` : '(default format)'} in ${body}` });
    } else if (schema.format && actual !== 'string' && actual !== 'array' && actual !== 'null' && dataFormat(actual) !== schema.format) {
      // kube-openapi's type validator checks a formatted field's non-string value by format
      // first: the field's format against the value's (int64, float64, or none).
      errors.push({ type: 'FieldValueTypeInvalid', field: fieldPath, value: goQuote(dataFormat(actual)), detail: `${inBody(body)} must be of type ${schema.format}: ${goQuote(dataFormat(actual))}`, check: { keyword: 'type', limit: schema.type, actual } });
    } else {
      // The other validators still run, each on the kinds of value it checks (enum on any).
      errors.push({ type: 'FieldValueTypeInvalid', field: fieldPath, value: goQuote(actual), detail: `${inBody(body)} must be of type ${schema.type}: ${goQuote(actual)}`, check: { keyword: 'type', limit: schema.type, actual } });
    }
  }
  if (schema.type === 'integer' && schema.format === 'int32' && actual === 'integer' && ((value as number) < -(2 ** 31) || (value as number) >= 2 ** 31)) {
    // A whole number out of int32's range is no int32: the type validator's format check, without a type error.
    errors.push({ type: 'FieldValueInvalid', field: '<nil>', value: '""', detail: `Checked value must be of type integer with format int32 in ${body}`, check: { keyword: 'format', limit: 'int32', actual: value, field: path } });
  }
  if (typeof value === 'string') stringChecks(value, schema, fieldPath, body, errors);
  if (typeof value === 'number') numberChecks(value, schema, fieldPath, body, errors);
  if (Array.isArray(value)) arrayChecks(value, old, schema, path, body, errors);
  if (isObject(value)) objectChecks(value, old, schema, path, body, errors);
  if (schema.enum !== undefined && !schema.enum.some((allowed) => deepEqual(allowed, value))) {
    const supported = schema.enum.map((allowed) => goQuote(typeof allowed === 'string' ? allowed : JSON.stringify(allowed))).join(', ');
    errors.push({ type: 'FieldValueNotSupported', field: fieldPath, value: goValue(value), detail: `supported values: ${supported}`, check: { keyword: 'enum', limit: schema.enum as Json[], actual: value } });
  }
}

/** apimachinery's `field.TooMany`: "item" when the limit is one. */
function tooMany(max: number): string {
  return `must have at most ${max} ${max === 1 ? 'item' : 'items'}`;
}

/** The format kube-openapi infers from a decoded value: a whole number is an int64, another a float64. */
function dataFormat(actual: string): string {
  return actual === 'integer' ? 'int64' : actual === 'number' ? 'float64' : '';
}

function typeMatches(type: string, actual: string): boolean {
  if (type === 'number') return actual === 'number' || actual === 'integer';
  return type === actual;
}

/** int-or-string: the validator reports the union's type, the anyOf and the integer branch's errors. */
function intOrString(value: Json, fieldPath: string, body: string, errors: FieldError[]): void {
  const actual = jsonType(value);
  if (actual === 'integer' || actual === 'string') return;
  errors.push({ type: 'FieldValueTypeInvalid', field: fieldPath, value: goQuote(actual), detail: `${inBody(body)} must be of type integer,string: ${goQuote(actual)}`, check: { keyword: 'x-kubernetes-int-or-string', actual } });
  errors.push({ type: 'FieldValueInvalid', field: '<nil>', value: '""', detail: `${goQuote(body)} must validate at least one schema (anyOf)` });
  errors.push({ type: 'FieldValueTypeInvalid', field: fieldPath, value: goQuote(actual), detail: `${inBody(body)} must be of type integer: ${goQuote(actual)}` });
  if (actual === 'number') errors.push({ type: 'FieldValueInvalid', field: '<nil>', value: '""', detail: `Checked value must be of type integer (default format) in ${body}` });
}

function stringChecks(value: string, schema: SchemaNode, fieldPath: string, body: string, errors: FieldError[]): void {
  if (schema.format !== undefined && matchesFormat(schema.format, value) === false) {
    errors.push({ type: 'FieldValueTypeInvalid', field: fieldPath, value: goQuote(value), detail: `${inBody(body)} must be of type ${schema.format}: ${goQuote(value)}`, check: { keyword: 'format', limit: schema.format as string, actual: value } });
  }
  // The string validator stops at its first failure: length bounds, then the pattern.
  const length = [...value].length;
  if (schema.minLength !== undefined && length < schema.minLength) {
    errors.push({ type: 'FieldValueInvalid', field: fieldPath, value: goQuote(value), detail: `${inBody(body)} should be at least ${schema.minLength} chars long`, check: { keyword: 'minLength', limit: schema.minLength, actual: length } });
  } else if (schema.maxLength !== undefined && length > schema.maxLength) {
    errors.push({ type: 'FieldValueTooLong', field: fieldPath, detail: `may not be more than ${schema.maxLength} bytes`, check: { keyword: 'maxLength', limit: schema.maxLength, actual: length } });
  } else if (schema.pattern !== undefined && !matchesPattern(schema.pattern, value)) {
    errors.push({ type: 'FieldValueInvalid', field: fieldPath, value: goQuote(value), detail: `${inBody(body)} should match '${schema.pattern}'`, check: { keyword: 'pattern', limit: schema.pattern, actual: value } });
  }
}

function numberChecks(value: number, schema: SchemaNode, fieldPath: string, body: string, errors: FieldError[]): void {
  const invalid = (detail: string, keyword: string, limit: number) =>
    errors.push({ type: 'FieldValueInvalid', field: fieldPath, value: goNumber(value), detail: `${inBody(body)} ${detail}`, check: { keyword, limit, actual: value } });
  if (schema.multipleOf !== undefined && !isMultiple(value, schema.multipleOf)) invalid(`should be a multiple of ${goNumber(schema.multipleOf)}`, 'multipleOf', schema.multipleOf);
  if (schema.maximum !== undefined) {
    if (schema.exclusiveMaximum === true ? value >= schema.maximum : value > schema.maximum) {
      const exclusive = schema.exclusiveMaximum === true;
      invalid(`should be less than${exclusive ? '' : ' or equal to'} ${goNumber(schema.maximum)}`, exclusive ? 'exclusiveMaximum' : 'maximum', schema.maximum);
    }
  }
  if (schema.minimum !== undefined) {
    if (schema.exclusiveMinimum === true ? value <= schema.minimum : value < schema.minimum) {
      const exclusive = schema.exclusiveMinimum === true;
      invalid(`should be greater than${exclusive ? '' : ' or equal to'} ${goNumber(schema.minimum)}`, exclusive ? 'exclusiveMinimum' : 'minimum', schema.minimum);
    }
  }
}

function isMultiple(value: number, factor: number): boolean {
  const quotient = value / factor;
  return Math.abs(quotient - Math.round(quotient)) < 1e-9;
}

function arrayChecks(value: Json[], old: Json | undefined, schema: SchemaNode, path: string, body: string, errors: FieldError[]): void {
  const fieldPath = path === '' ? '<nil>' : path;
  if (schema.minItems !== undefined && value.length < schema.minItems) {
    errors.push({ type: 'FieldValueInvalid', field: fieldPath, value: String(value.length), detail: `${inBody(body)} should have at least ${schema.minItems} items`, check: { keyword: 'minItems', limit: schema.minItems, actual: value.length } });
  }
  if (schema.maxItems !== undefined && value.length > schema.maxItems) {
    errors.push({ type: 'FieldValueTooMany', field: fieldPath, value: String(value.length), detail: tooMany(schema.maxItems), check: { keyword: 'maxItems', limit: schema.maxItems, actual: value.length } });
  }
  const keys = schema['x-kubernetes-list-type'] === 'map' ? (schema['x-kubernetes-list-map-keys'] ?? []) : undefined;
  const previous = (item: Json): Json | undefined =>
    keys && Array.isArray(old) && isObject(item) ? old.find((candidate) => isObject(candidate) && keys.every((k) => deepEqual(candidate[k], item[k]))) : undefined;
  if (schema.items) value.forEach((item, i) => node(item, previous(item), schema.items!, `${path}[${i}]`, `${body}[${i}]`, errors));
}

function objectChecks(value: { [key: string]: Json }, old: Json | undefined, schema: SchemaNode, path: string, body: string, errors: FieldError[]): void {
  const fieldPath = path === '' ? '<nil>' : path;
  const count = Object.keys(value).length;
  if (schema.minProperties !== undefined && count < schema.minProperties) {
    errors.push({ type: 'FieldValueInvalid', field: fieldPath, value: String(count), detail: `${inBody(body)} should have at least ${schema.minProperties} properties`, check: { keyword: 'minProperties', limit: schema.minProperties, actual: count } });
  }
  if (schema.maxProperties !== undefined && count > schema.maxProperties) {
    errors.push({ type: 'FieldValueTooMany', field: fieldPath, value: String(count), detail: tooMany(schema.maxProperties), check: { keyword: 'maxProperties', limit: schema.maxProperties, actual: count } });
  }
  for (const name of schema.required ?? []) {
    if (!(name in value)) errors.push({ type: 'FieldValueRequired', field: path === '' ? name : `${path}.${name}`, check: { keyword: 'required', limit: name } });
  }
  // An embedded resource must say what it is (apiextensions' embedded-resource validation).
  if (schema['x-kubernetes-embedded-resource'] === true) {
    for (const name of ['apiVersion', 'kind']) {
      if (typeof value[name] !== 'string' || value[name] === '') {
        errors.push({ type: 'FieldValueRequired', field: path === '' ? name : `${path}.${name}`, check: { keyword: 'x-kubernetes-embedded-resource', limit: name } });
      }
    }
  }
  const additional = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
  for (const [name, child] of Object.entries(value)) {
    const property = schema.properties?.[name];
    const before = isObject(old) ? old[name] : undefined;
    if (property) node(child, before, property, path === '' ? name : `${path}.${name}`, body === '' ? name : `${body}.${name}`, errors);
    else if (additional) node(child, before, additional, path === '' ? name : `${path}.${name}`, body === '' ? name : `${body}.${name}`, errors);
  }
}

/** Whether `value` matches the schema's pattern, with RE2's semantics (as the API server; a CRD with a pattern RE2 refuses is not admitted). */
function matchesPattern(pattern: string, value: string): boolean {
  const re = compileRe2(pattern);
  return !('error' in re) && re.matches(value);
}
