import { hasJsonType } from '../schema/json-type.js';
import type { JSONSchemaProps } from '../schema/types.js';
import { matchesFormat } from './formats.js';
import { isJsonObject, jsonEqual, jsonTypeOf } from './json.js';
import { itemPath, propertyPath, type SchemaProblem } from './path.js';
import { compilePattern } from './pattern.js';
import { isIntOrStringAnyOf } from './shapes.js';

/**
 * Validates a JSON value against a CRD schema the way the API server's schema validator
 * does for custom resources: types (with `nullable` and int-or-string), `enum`, numeric and
 * length limits, `pattern`, checked formats, `required`, item and property counts,
 * `uniqueItems`, list-set and list-map uniqueness, `allOf`/`anyOf`/`oneOf`/`not`, and the
 * `apiVersion`/`kind` an embedded resource must carry. CEL rules are not evaluated, and
 * unknown fields are not errors (the API server prunes them; see `prune`).
 *
 * @param path the data path of `value`, prefixed to every problem.
 */
export function validateValue(schema: JSONSchemaProps, value: unknown, path = ''): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  validate(schema, value, path, problems);
  return problems;
}

function validate(schema: JSONSchemaProps, value: unknown, path: string, problems: SchemaProblem[]): void {
  const report = (message: string, at = path) => problems.push({ path: at, message });

  if (value === null) {
    if (schema.nullable || (schema.type === undefined && !schema['x-kubernetes-int-or-string'])) return;
    report(schema.type ? `must be of type ${schema.type}, got null` : 'must be an integer or a string, got null');
    return;
  }
  if (schema.type && !hasJsonType(schema.type, value)) {
    report(`must be of type ${schema.type}, got ${jsonTypeOf(value)}`);
    return;
  }
  if (schema['x-kubernetes-int-or-string'] && !(typeof value === 'string' || Number.isInteger(value))) {
    report(`must be an integer or a string, got ${jsonTypeOf(value)}`);
    return;
  }
  if (schema.enum && !schema.enum.some((allowed) => jsonEqual(allowed, value))) {
    report(`must be one of ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}, got ${JSON.stringify(value)}`);
  }
  if (typeof value === 'string') validateString(schema, value, report);
  if (typeof value === 'number') validateNumber(schema, value, report);
  if (Array.isArray(value)) validateArray(schema, value, path, problems, report);
  if (isJsonObject(value)) validateObject(schema, value, path, problems, report);
  validateJunctors(schema, value, path, problems, report);
}

type Report = (message: string, at?: string) => void;

function validateString(schema: JSONSchemaProps, value: string, report: Report): void {
  const length = [...value].length;
  if (schema.minLength !== undefined && length < schema.minLength) {
    report(`must be at least ${schema.minLength} characters long, got ${length}`);
  }
  if (schema.maxLength !== undefined && length > schema.maxLength) {
    report(`must be at most ${schema.maxLength} characters long, got ${length}`);
  }
  if (schema.pattern !== undefined) {
    const compiled = compilePattern(schema.pattern);
    if ('re2' in compiled && !compiled.re2.matches(value)) report(`must match the pattern ${schema.pattern}, got ${JSON.stringify(value)}`);
  }
  if (schema.format !== undefined && matchesFormat(schema.format, value) === false) {
    report(`must be in ${schema.format} format, got ${JSON.stringify(value)}`);
  }
}

function validateNumber(schema: JSONSchemaProps, value: number, report: Report): void {
  const { minimum, maximum, multipleOf } = schema;
  if (minimum !== undefined && (schema.exclusiveMinimum ? value <= minimum : value < minimum)) {
    report(`must be greater than ${schema.exclusiveMinimum ? '' : 'or equal to '}${minimum}, got ${value}`);
  }
  if (maximum !== undefined && (schema.exclusiveMaximum ? value >= maximum : value > maximum)) {
    report(`must be less than ${schema.exclusiveMaximum ? '' : 'or equal to '}${maximum}, got ${value}`);
  }
  if (multipleOf !== undefined && multipleOf > 0) {
    const quotient = value / multipleOf;
    if (Math.abs(quotient - Math.round(quotient)) > 1e-9 * Math.max(1, Math.abs(quotient))) {
      report(`must be a multiple of ${multipleOf}, got ${value}`);
    }
  }
}

function validateArray(schema: JSONSchemaProps, value: unknown[], path: string, problems: SchemaProblem[], report: Report): void {
  if (schema.minItems !== undefined && value.length < schema.minItems) report(`must have at least ${schema.minItems} items, got ${value.length}`);
  if (schema.maxItems !== undefined && value.length > schema.maxItems) report(`must have at most ${schema.maxItems} items, got ${value.length}`);
  const listType = schema['x-kubernetes-list-type'];
  if (schema.uniqueItems || listType === 'set') reportDuplicates(value, (item) => item, path, report, 'duplicate item');
  if (listType === 'map') {
    const keys = schema['x-kubernetes-list-map-keys'] ?? [];
    const keyOf = (item: unknown) => keys.map((key) => (isJsonObject(item) ? (item[key] ?? null) : null));
    reportDuplicates(value, keyOf, path, report, `duplicate entry for key ${keys.join(', ')}`);
  }
  if (schema.items) value.forEach((item, i) => validate(schema.items as JSONSchemaProps, item, itemPath(path, i), problems));
}

function reportDuplicates(items: unknown[], keyOf: (item: unknown) => unknown, path: string, report: Report, what: string): void {
  const seen: unknown[] = [];
  items.forEach((item, i) => {
    const key = keyOf(item);
    if (seen.some((other) => jsonEqual(other, key))) report(`${what} ${JSON.stringify(key)}`, itemPath(path, i));
    seen.push(key);
  });
}

function validateObject(
  schema: JSONSchemaProps,
  value: Record<string, unknown>,
  path: string,
  problems: SchemaProblem[],
  report: Report,
): void {
  const count = Object.keys(value).length;
  const { minProperties, maxProperties } = schema;
  if (minProperties !== undefined && count < minProperties) report(`must have at least ${minProperties} properties, got ${count}`);
  if (maxProperties !== undefined && count > maxProperties) report(`must have at most ${maxProperties} properties, got ${count}`);
  for (const name of schema.required ?? []) {
    if (value[name] === undefined) report('is required', propertyPath(path, name));
  }
  if (schema['x-kubernetes-embedded-resource']) {
    for (const name of ['apiVersion', 'kind']) {
      if (typeof value[name] !== 'string' || value[name] === '') report('is required in an embedded resource', propertyPath(path, name));
    }
  }
  for (const [name, item] of Object.entries(value)) {
    if (item === undefined) continue;
    const propertySchema = schema.properties?.[name];
    if (propertySchema) validate(propertySchema, item, propertyPath(path, name), problems);
    else if (typeof schema.additionalProperties === 'object') validate(schema.additionalProperties, item, propertyPath(path, name), problems);
  }
}

function validateJunctors(schema: JSONSchemaProps, value: unknown, path: string, problems: SchemaProblem[], report: Report): void {
  for (const clause of schema.allOf ?? []) validate(clause, value, path, problems);
  // The int-or-string anyOf only restates the type, which is checked above.
  if (schema.anyOf && !isIntOrStringAnyOf(schema.anyOf)) {
    const failures = schema.anyOf.map((clause) => validateValue(clause, value, path));
    if (failures.every((f) => f.length > 0)) {
      report(`must match at least one schema of anyOf: ${failures.map((f) => f[0]?.message).join('; or ')}`);
    }
  }
  if (schema.oneOf) {
    const matching = schema.oneOf.filter((clause) => validateValue(clause, value, path).length === 0).length;
    if (matching !== 1) report(`must match exactly one schema of oneOf, matches ${matching}`);
  }
  if (schema.not && validateValue(schema.not, value, path).length === 0) report('must not match the schema in not');
}
