/**
 * Validation of a custom object against its structural schema, with the messages and field
 * paths of the API server's OpenAPI validator (kube-openapi's fork of go-openapi's validate):
 * `spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer:
 * "string"`, junctors included (combinators.ts: `"spec.x" must validate one and only one
 * schema (oneOf)`). On update (`old` given) a value equal to the old one at the same place is not
 * validated (the API server's ratcheting: what was stored stays valid when a schema tightens);
 * places are correlated through properties, map keys and `list-type: map` keys. `bodyPath` is the path the validator's messages name: the object's path, or the
 * path below `status` when the status subresource is validated on its own.
 *
 * @module
 */
import { compileRe2 } from '../cel/index.js';
import { matchesFormat } from './formats.js';
import { isIntOrStringAnyOf, junctorErrors } from './combinators.js';
import { goNumber, goQuote, goValue, printed } from './paths.js';
import { deepEqual, isObject, type FieldError, type Json, type SchemaNode } from './types.js';

/**
 * The structural schema's errors for `value` (the whole object, or `status` with `path`
 * `status` and `bodyPath` ''), in the validator's order for each node.
 *
 * @example
 * validateStructural(object, schema); // [{ type: 'FieldValueRequired', field: 'spec.name' }]
 */
export function validateStructural(value: Json, schema: SchemaNode, path = '', bodyPath = '', old?: Json): FieldError[] {
  // kube-openapi's notes (errors that name no field) are placed at the validator's root: the
  // object (`<nil>`), or `status` when the status subresource is validated on its own.
  const root = path.endsWith(bodyPath) ? path.slice(0, path.length - bodyPath.length).replace(/\.$/, '') : '';
  const walk: Walk = { errors: [], notes: printed(root) };
  node(value, old, schema, path, bodyPath, walk);
  return unique(walk.errors);
}

/** What one validation shares: the errors so far, and the field kube-openapi's notes are reported at. */
interface Walk {
  errors: FieldError[];
  notes: string;
}

/**
 * The errors without repeats, the first kept: kube-openapi's result drops an error whose text
 * it already holds (a junctor clause's error that the node itself reports too).
 */
function unique(errors: FieldError[]): FieldError[] {
  const seen = new Set<string>();
  return errors.filter((error) => {
    const key = JSON.stringify([error.type, error.field, error.value, error.detail]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
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

/**
 * Validates `value` at one node and returns kube-openapi's match count for it (see
 * {@link ClauseResult}): 1, plus 1 for each validator that applies (type, junctors, string,
 * format, number, list, enum, object) and what each counted itself. Only a junctor's clauses
 * use the count, and they are never ratcheted, so an unchanged node may count 0.
 */
function node(value: Json, old: Json | undefined, schema: SchemaNode, path: string, body: string, walk: Walk): number {
  if (old !== undefined && deepEqual(value, old)) return 0;
  const { errors } = walk;
  const fieldPath = path === '' ? '<nil>' : path;
  if (value === null && schema.nullable === true) return 1;
  const actual = jsonType(value);
  const before = errors.length;
  if (schema['x-kubernetes-int-or-string'] === true) {
    // Either type is then checked by the validators of its kind (a pattern on the string).
    intOrString(value, schema, fieldPath, body, walk);
  } else if (schema.format && schema.type !== 'integer' && schema.type !== 'number' && actual === 'array') {
    // kube-openapi's type validator passes a list in a formatted non-numeric field (a slice
    // is taken for a formatted value); the other validators still run.
  } else if (schema.type !== undefined && !typeMatches(schema.type, actual)) {
    if (schema.type === 'integer' && actual === 'number') {
      const format = schema.format === 'int32' || schema.format === 'int64' ? schema.format : undefined;
      errors.push({ type: 'FieldValueTypeInvalid', field: fieldPath, value: format ? '"float64"' : '"number"', detail: `${inBody(body)} must be of type ${format ?? 'integer'}: ${format ? '"float64"' : '"number"'}`, check: { keyword: 'type', limit: 'integer', actual } });
      errors.push({ type: 'FieldValueInvalid', field: walk.notes, value: '""', detail: `Checked value must be of type integer ${format ? `with format ${format}` : '(default format)'} in ${body}` });
    } else if (schema.format && actual !== 'string' && actual !== 'array' && actual !== 'null' && dataFormat(actual) !== schema.format) {
      // kube-openapi's type validator checks a formatted field's non-string value by format
      // first: the field's format against the value's (int64, float64, or none).
      errors.push({ type: 'FieldValueTypeInvalid', field: fieldPath, value: goQuote(dataFormat(actual)), detail: `${inBody(body)} must be of type ${schema.format}: ${goQuote(dataFormat(actual))}`, check: { keyword: 'type', limit: schema.type, actual } });
    } else {
      // The other validators still run, each on the kinds of value it checks (enum on any).
      errors.push({ type: 'FieldValueTypeInvalid', field: fieldPath, value: goQuote(actual), detail: `${inBody(body)} must be of type ${schema.type}: ${goQuote(actual)}`, check: { keyword: 'type', limit: schema.type, actual } });
    }
  }
  const typeFailed = errors.length > before;
  if (schema.type === 'integer' && schema.format === 'int32' && actual === 'integer' && ((value as number) < -(2 ** 31) || (value as number) >= 2 ** 31)) {
    // A whole number out of int32's range is no int32: the type validator's format check, without a type error.
    errors.push({ type: 'FieldValueInvalid', field: walk.notes, value: '""', detail: `Checked value must be of type integer with format int32 in ${body}`, check: { keyword: 'format', limit: 'int32', actual: value, field: path } });
  }
  // kube-openapi runs only the type and enum checks on null.
  if (value === null) {
    enumCheck(value, schema, fieldPath, errors);
    return typeFailed ? 0 : 1;
  }
  // The node's own 1, and 1 for each of the enum and junctor validators, which apply to every value.
  let count = 3 + (typeApplies(schema) ? (typeFailed ? 1 : 2) : 0);
  count += junctors(value, schema, path, body, walk);
  if (typeof value === 'string') {
    stringChecks(value, schema, fieldPath, body, errors);
    count += schema.format !== undefined && matchesFormat(schema.format, value) !== undefined ? 2 : 1;
  }
  if (typeof value === 'number') {
    numberChecks(value, schema, fieldPath, body, errors);
    count += 2;
  }
  if (Array.isArray(value)) count += 2 + arrayChecks(value, old, schema, path, body, walk);
  if (isObject(value)) count += 1 + objectChecks(value, old, schema, path, body, walk);
  enumCheck(value, schema, fieldPath, errors);
  return count;
}

function enumCheck(value: Json, schema: SchemaNode, fieldPath: string, errors: FieldError[]): void {
  if (schema.enum !== undefined && !schema.enum.some((allowed) => deepEqual(allowed, value))) {
    const supported = schema.enum.map((allowed) => goQuote(typeof allowed === 'string' ? allowed : JSON.stringify(allowed))).join(', ');
    errors.push({ type: 'FieldValueNotSupported', field: fieldPath, value: goValue(value), detail: `supported values: ${supported}`, check: { keyword: 'enum', limit: schema.enum as Json[], actual: value } });
  }
}

/** Whether kube-openapi's type validator runs: a type, int-or-string, or a format the API server keeps. */
function typeApplies(schema: SchemaNode): boolean {
  return schema.type !== undefined || schema['x-kubernetes-int-or-string'] === true || (schema.format !== undefined && matchesFormat(schema.format, '') !== undefined);
}

/** The junctors' errors at this node (their clauses validated at its path, never ratcheted), and their match count. */
function junctors(value: Json, schema: SchemaNode, path: string, body: string, walk: Walk): number {
  if (!schema.allOf && !schema.anyOf && !schema.oneOf && !schema.not) return 1;
  const found = junctorErrors(schema, path, body, walk.notes, (clause) => {
    const inner: Walk = { errors: [], notes: walk.notes };
    const count = node(value, undefined, clause, path, body, inner);
    return { errors: inner.errors, count };
  });
  walk.errors.push(...found.errors);
  return found.count;
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

/**
 * int-or-string: the type error, then (not on null, where kube-openapi runs no junctor) the
 * errors of the union's `anyOf` when the schema has it: the note and the integer branch's
 * errors (both branches fail alike, the first is reported). combinators.ts leaves that anyOf here.
 */
function intOrString(value: Json, schema: SchemaNode, fieldPath: string, body: string, walk: Walk): void {
  const actual = jsonType(value);
  if (actual === 'integer' || actual === 'string') return;
  walk.errors.push({ type: 'FieldValueTypeInvalid', field: fieldPath, value: goQuote(actual), detail: `${inBody(body)} must be of type integer,string: ${goQuote(actual)}`, check: { keyword: 'x-kubernetes-int-or-string', actual } });
  if (actual === 'null' || !isIntOrStringAnyOf(schema.anyOf)) return;
  walk.errors.push({ type: 'FieldValueInvalid', field: walk.notes, value: '""', detail: `${goQuote(body)} must validate at least one schema (anyOf)` });
  walk.errors.push({ type: 'FieldValueTypeInvalid', field: fieldPath, value: goQuote(actual), detail: `${inBody(body)} must be of type integer: ${goQuote(actual)}` });
  if (actual === 'number') walk.errors.push({ type: 'FieldValueInvalid', field: walk.notes, value: '""', detail: `Checked value must be of type integer (default format) in ${body}` });
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

/** The list's own checks and its items'; returns the items' match counts. */
function arrayChecks(value: Json[], old: Json | undefined, schema: SchemaNode, path: string, body: string, walk: Walk): number {
  const { errors } = walk;
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
  let count = 0;
  if (schema.items) value.forEach((item, i) => (count += node(item, previous(item), schema.items!, `${path}[${i}]`, `${body}[${i}]`, walk)));
  return count;
}

/** The object's own checks and its fields'; returns the fields' match counts. */
function objectChecks(value: { [key: string]: Json }, old: Json | undefined, schema: SchemaNode, path: string, body: string, walk: Walk): number {
  const { errors } = walk;
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
  let matches = 0;
  for (const [name, child] of Object.entries(value)) {
    const childSchema = schema.properties?.[name] ?? additional;
    const before = isObject(old) ? old[name] : undefined;
    if (childSchema) matches += node(child, before, childSchema, path === '' ? name : `${path}.${name}`, body === '' ? name : `${body}.${name}`, walk);
  }
  return matches;
}

/** Whether `value` matches the schema's pattern, with RE2's semantics (as the API server; a CRD with a pattern RE2 refuses is not admitted). */
function matchesPattern(pattern: string, value: string): boolean {
  const re = compileRe2(pattern);
  return !('error' in re) && re.matches(value);
}
