/**
 * `x-kubernetes-validations` evaluation as the API server's CEL validator does it: every
 * rule of every node present in the object, `self` the node's value; transition rules (those
 * naming `oldSelf`) only on update and only where the old value can be correlated (object
 * properties, map values, items of `list-type: map` lists by their keys), unless
 * `optionalOldSelf` makes `oldSelf` an optional; on update nothing is evaluated for a value
 * that did not change (ratcheting). Failures are field errors with the rule's `reason`,
 * `fieldPath`, and `message` or `messageExpression` (else `failed rule: <rule>`).
 *
 * @module
 */
import { Optional } from '@marcbachmann/cel-js';
import { goValue } from '../paths.js';
import { deepEqual, isObject, type FieldError, type Json, type SchemaNode, type ValidationRule } from '../types.js';
import { celGoMessage, compile } from './environment.js';
import { toCel } from './values.js';

/** `old` is undefined on create; on update the stored object. */
export function validateRules(value: Json, old: Json | undefined, schema: SchemaNode, path = '', resource = true): FieldError[] {
  const errors: FieldError[] = [];
  walk(value, old, old !== undefined, schema, path, resource, errors);
  return errors;
}

function walk(value: Json, old: Json | undefined, update: boolean, schema: SchemaNode, path: string, resource: boolean, errors: FieldError[]): void {
  if (update && old !== undefined && deepEqual(value, old)) return;
  const rules = schema['x-kubernetes-validations'] ?? [];
  if (rules.length > 0) {
    const self = toCel(value, schema, resource);
    const oldSelf = old === undefined ? undefined : toCel(old, schema, resource);
    for (const rule of rules) evaluate(rule, self, oldSelf, update, value, schema, path, errors);
  }
  const embedded = resource || schema['x-kubernetes-embedded-resource'] === true;
  if (Array.isArray(value) && schema.items) {
    const keys = schema['x-kubernetes-list-type'] === 'map' ? (schema['x-kubernetes-list-map-keys'] ?? []) : undefined;
    value.forEach((item, i) => {
      const previous = keys && Array.isArray(old) ? old.find((candidate) => isObject(candidate) && isObject(item) && keys.every((k) => deepEqual(candidate[k], item[k]))) : undefined;
      walk(item, previous, update, schema.items!, `${path}[${i}]`, false, errors);
    });
  }
  if (isObject(value)) {
    const additional = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
    for (const [name, child] of Object.entries(value)) {
      if (embedded && (name === 'metadata' || name === 'apiVersion' || name === 'kind')) continue;
      const property = schema.properties?.[name] ?? additional;
      if (!property) continue;
      const previous = isObject(old) ? old[name] : undefined;
      walk(child, previous, update, property, path === '' ? name : `${path}.${name}`, false, errors);
    }
  }
}

function evaluate(rule: ValidationRule, self: unknown, oldSelf: unknown, update: boolean, value: Json, schema: SchemaNode, path: string, errors: FieldError[]): void {
  const transition = /\boldSelf\b/.test(rule.rule) || /\boldSelf\b/.test(rule.messageExpression ?? '');
  const optional = rule.optionalOldSelf === true;
  if (transition && !optional && (!update || oldSelf === undefined)) return;
  const variables = { self, oldSelf: optional ? (oldSelf === undefined ? Optional.none() : Optional.of(oldSelf)) : oldSelf };
  const at = path === '' ? '<nil>' : path;
  const program = compile(rule.rule, optional);
  let result: unknown;
  try {
    if (program instanceof Error) throw program;
    result = program(variables);
  } catch (error) {
    errors.push({ type: 'FieldValueInvalid', field: at, value: goValue(typeName(schema, value)), detail: `${celGoMessage(error)} evaluating rule: ${ruleErrorString(rule)}` });
    return;
  }
  if (result === true) return;
  const detail = message(rule, variables);
  const field = rule.fieldPath ? appendFieldPath(path, rule.fieldPath) : at;
  const scalar = value === null || typeof value !== 'object' ? goValue(value) : undefined;
  switch (rule.reason) {
    case 'FieldValueForbidden':
      errors.push({ type: 'FieldValueForbidden', field, detail });
      break;
    case 'FieldValueRequired':
      errors.push({ type: 'FieldValueRequired', field, detail });
      break;
    case 'FieldValueDuplicate':
      errors.push({ type: 'FieldValueDuplicate', field, value: scalar });
      break;
    default:
      errors.push({ type: 'FieldValueInvalid', field, value: scalar, detail });
  }
}

function message(rule: ValidationRule, variables: Record<string, unknown>): string {
  const fallback = rule.message ?? `failed rule: ${rule.rule.trim()}`;
  if (rule.messageExpression === undefined) return fallback;
  const program = compile(rule.messageExpression, rule.optionalOldSelf === true);
  try {
    if (program instanceof Error) return fallback;
    const text = program(variables) as unknown;
    return typeof text === 'string' && text.trim() !== '' && !/[\r\n]/.test(text) ? text : fallback;
  } catch {
    return fallback;
  }
}

/** The schema type the API server names when a rule fails to evaluate. */
function typeName(schema: SchemaNode, value: Json): string {
  if (schema.type) return schema.type;
  if (Array.isArray(value)) return 'array';
  return value === null ? 'null' : typeof value === 'object' ? 'object' : typeof value;
}

/** `fieldPath` (`.spec.replicas`, `['a.b']`, `.ports[0]`) appended to the rule's node path. */
function appendFieldPath(path: string, fieldPath: string): string {
  let out = path;
  for (const [, dotted, quoted, index] of fieldPath.matchAll(/\.([^.[\]]+)|\['((?:[^'\\]|\\.)*)'\]|\[(\d+)\]/g)) {
    if (index !== undefined) out = `${out}[${index}]`;
    else {
      const name = (dotted ?? quoted)!;
      out = out === '' ? name : `${out}.${name}`;
    }
  }
  return out === '' ? '<nil>' : out;
}

/** How an evaluation error names its rule (apiextensions' `ruleErrorString`): the rule's message when it has one, else the rule. */
function ruleErrorString(rule: ValidationRule): string {
  return rule.message?.trim() ? rule.message.trim() : rule.rule.trim();
}
