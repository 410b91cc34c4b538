import { isDeepStrictEqual } from 'node:util';
import type { JSONSchemaProps, ValidationRule } from '../schema/types.js';
import type { Change, Rule } from './rules.js';

type Found = Omit<Change, 'kind' | 'version'>;

/**
 * Every difference between one version's released schema `before` and its generated schema
 * `after`, walking both trees together by property name, list items and map values.
 */
export function compareSchemas(before: JSONSchemaProps, after: JSONSchemaProps): Found[] {
  const found: Found[] = [];
  compareNode(before, after, '', found);
  return found;
}

function compareNode(before: JSONSchemaProps, after: JSONSchemaProps, path: string, out: Found[]): void {
  const add = (rule: Rule, detail: string, at = path) => out.push({ rule, path: at, detail });
  if (before.type !== after.type || Boolean(before['x-kubernetes-int-or-string']) !== Boolean(after['x-kubernetes-int-or-string'])) {
    add('type-changed', `type ${typeName(before)} → ${typeName(after)}`);
    return; // what lies below a new type is new
  }
  compareEnum(before.enum, after.enum, add);
  compareBound(before.minimum, after.minimum, before.exclusiveMinimum, after.exclusiveMinimum, 'minimum', 'minimum-tightened', add);
  compareBound(before.maximum, after.maximum, before.exclusiveMaximum, after.exclusiveMaximum, 'maximum', 'maximum-tightened', add);
  compareBound(before.minLength, after.minLength, false, false, 'minLength', 'min-length-tightened', add);
  compareBound(before.maxLength, after.maxLength, false, false, 'maxLength', 'max-length-tightened', add);
  compareBound(before.minItems, after.minItems, false, false, 'minItems', 'min-items-tightened', add);
  compareBound(before.maxItems, after.maxItems, false, false, 'maxItems', 'max-items-tightened', add);
  compareBound(before.minProperties, after.minProperties, false, false, 'minProperties', 'min-properties-tightened', add);
  compareBound(before.maxProperties, after.maxProperties, false, false, 'maxProperties', 'max-properties-tightened', add);
  if (before.multipleOf !== after.multipleOf) {
    if (after.multipleOf === undefined) add('bound-loosened', `multipleOf ${before.multipleOf} dropped`);
    else add('multiple-of-changed', `multipleOf ${show(before.multipleOf)} → ${after.multipleOf}`);
  }
  compareKeyword(before.pattern, after.pattern, 'pattern', 'pattern-changed', 'pattern-removed', add);
  compareKeyword(before.format, after.format, 'format', 'format-changed', 'format-removed', add);
  if (Boolean(before.uniqueItems) !== Boolean(after.uniqueItems)) add(after.uniqueItems ? 'unique-items-added' : 'unique-items-removed', `uniqueItems ${Boolean(before.uniqueItems)} → ${Boolean(after.uniqueItems)}`);
  if (Boolean(before.nullable) !== Boolean(after.nullable)) add(after.nullable ? 'nullable-added' : 'nullable-removed', `nullable ${Boolean(before.nullable)} → ${Boolean(after.nullable)}`);
  if (before['x-kubernetes-preserve-unknown-fields'] && !after['x-kubernetes-preserve-unknown-fields']) add('preserve-unknown-fields-removed', 'x-kubernetes-preserve-unknown-fields dropped');
  if ((before['x-kubernetes-list-type'] ?? 'atomic') !== (after['x-kubernetes-list-type'] ?? 'atomic') || !isDeepStrictEqual(before['x-kubernetes-list-map-keys'], after['x-kubernetes-list-map-keys'])) {
    add('list-type-changed', `list ${listName(before)} → ${listName(after)}`);
  }
  if ((before['x-kubernetes-map-type'] ?? 'granular') !== (after['x-kubernetes-map-type'] ?? 'granular')) {
    add('map-type-changed', `x-kubernetes-map-type ${before['x-kubernetes-map-type'] ?? 'granular'} → ${after['x-kubernetes-map-type'] ?? 'granular'}`);
  }
  for (const keyword of ['anyOf', 'allOf', 'oneOf', 'not'] as const) {
    if (!isDeepStrictEqual(before[keyword], after[keyword])) add('type-changed', `${keyword} changed`);
  }
  compareRules(before['x-kubernetes-validations'] ?? [], after['x-kubernetes-validations'] ?? [], add);
  if (path !== '' && !isDeepStrictEqual(before.default, after.default)) {
    add('default-changed', `default ${show(before.default)} → ${show(after.default)}`);
  }
  compareChildren(before, after, path, out, add);
}

function compareChildren(before: JSONSchemaProps, after: JSONSchemaProps, path: string, out: Found[], add: (rule: Rule, detail: string, at?: string) => void): void {
  const oldRequired = new Set(before.required ?? []);
  const newRequired = new Set(after.required ?? []);
  const oldProps = before.properties ?? {};
  const newProps = after.properties ?? {};
  for (const [name, node] of Object.entries(oldProps)) {
    const child = childPath(path, name);
    const next = newProps[name];
    if (!next) {
      if (!after['x-kubernetes-preserve-unknown-fields']) add('field-removed', `field ${name} removed`, child);
      continue;
    }
    compareNode(node, next, child, out);
    if (newRequired.has(name) && !oldRequired.has(name)) add('required-added', `${name} became required`, child);
    if (oldRequired.has(name) && !newRequired.has(name)) add('required-removed', `${name} is optional now`, child);
  }
  for (const name of Object.keys(newProps)) {
    if (oldProps[name]) continue;
    const child = childPath(path, name);
    if (newRequired.has(name)) add('required-added', `new field ${name} is required`, child);
    else add('field-added', `field ${name} added`, child);
  }
  if (before.items && after.items) compareNode(before.items, after.items, `${path}[*]`, out);
  const oldValues = before.additionalProperties;
  const newValues = after.additionalProperties;
  if (typeof oldValues === 'object' && typeof newValues === 'object') compareNode(oldValues, newValues, `${path}[*]`, out);
  else if (typeof oldValues === 'object' && newValues === undefined && !after.properties) add('type-changed', 'map values no longer allowed');
}

function compareEnum(before: unknown[] | undefined, after: unknown[] | undefined, add: (rule: Rule, detail: string) => void): void {
  if (!before && !after) return;
  if (!after) return add('enum-extended', 'enum dropped');
  if (!before) return add('enum-restricted', `enum ${show(after)} added`);
  const keys = (values: unknown[]) => new Set(values.map((v) => JSON.stringify(v)));
  const oldKeys = keys(before);
  const newKeys = keys(after);
  const removed = [...oldKeys].filter((k) => !newKeys.has(k));
  const added = [...newKeys].filter((k) => !oldKeys.has(k));
  if (removed.length) add('enum-restricted', `enum values ${removed.join(', ')} removed`);
  else if (added.length) add('enum-extended', `enum values ${added.join(', ')} added`);
}

/** A lower bound (`minimum`, `minLength`…) when `rule` ends in a min-rule, else an upper bound. */
function compareBound(
  before: number | undefined,
  after: number | undefined,
  oldExclusive: boolean | undefined,
  newExclusive: boolean | undefined,
  keyword: string,
  rule: Rule,
  add: (rule: Rule, detail: string) => void,
): void {
  if (before === after && Boolean(oldExclusive) === Boolean(newExclusive)) return;
  const lower = keyword.startsWith('min');
  const describe = (value: number | undefined, exclusive: boolean | undefined) => (value === undefined ? 'none' : `${value}${exclusive ? ' (exclusive)' : ''}`);
  const detail = `${keyword} ${describe(before, oldExclusive)} → ${describe(after, newExclusive)}`;
  if (after === undefined) return add('bound-loosened', detail);
  if (before === undefined) return add(rule, detail);
  const tighter = lower ? after > before : after < before;
  const sameButExclusive = after === before && Boolean(newExclusive) && !oldExclusive;
  add(tighter || sameButExclusive ? rule : 'bound-loosened', detail);
}

function compareKeyword(before: string | undefined, after: string | undefined, keyword: string, changed: Rule, removed: Rule, add: (rule: Rule, detail: string) => void): void {
  if (before === after) return;
  add(after === undefined ? removed : changed, `${keyword} ${show(before)} → ${show(after)}`);
}

/** Rules are the same rule when their text and optionalOldSelf agree (messages may change freely). */
function compareRules(before: readonly ValidationRule[], after: readonly ValidationRule[], add: (rule: Rule, detail: string) => void): void {
  const key = (r: ValidationRule) => `${r.rule}\u0000${Boolean(r.optionalOldSelf)}`;
  const oldKeys = new Set(before.map(key));
  const newKeys = new Set(after.map(key));
  for (const rule of before) if (!newKeys.has(key(rule))) add('validation-rule-removed', `CEL rule ${JSON.stringify(rule.rule)} dropped`);
  for (const rule of after) {
    if (oldKeys.has(key(rule))) continue;
    add(rule.optionalOldSelf ? 'validation-rule-ratcheted' : 'validation-rule-added', `CEL rule ${JSON.stringify(rule.rule)} added`);
  }
}

function childPath(path: string, name: string): string {
  const part = /^[A-Za-z_$][\w$-]*$/.test(name) ? name : `[${JSON.stringify(name)}]`;
  if (part.startsWith('[')) return `${path}${part}`;
  return path ? `${path}.${part}` : part;
}

function typeName(node: JSONSchemaProps): string {
  if (node['x-kubernetes-int-or-string']) return 'int-or-string';
  return node.type ?? (node['x-kubernetes-preserve-unknown-fields'] ? 'any' : 'untyped');
}

function listName(node: JSONSchemaProps): string {
  const type = node['x-kubernetes-list-type'] ?? 'atomic';
  const keys = node['x-kubernetes-list-map-keys'];
  return keys ? `${type} [${keys.join(', ')}]` : type;
}

function show(value: unknown): string {
  return value === undefined ? 'none' : JSON.stringify(value);
}
