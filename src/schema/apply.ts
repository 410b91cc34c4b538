/**
 * Applies validation and processing markers to a schema node. Markers on a field land on
 * top of what its type already says: annotations replace, limits may only narrow, and the
 * same keyword given twice in one comment with different values is an error.
 *
 * @module
 */
import { isDeepStrictEqual } from 'node:util';
import { UserError, type Location } from '../errors.js';
import { resolveLiteral, type Literal } from '../markers/literal.js';
import type { Marker } from '../markers/parse.js';
import type { MarkerCheck } from './checks.js';
import { hasJsonType } from './json-type.js';
import { compileRe2 } from '@opgen/runtime/internal/cel';
import type { JSONSchemaProps, ValidationRule } from './types.js';

const validation = 'kubebuilder:validation:';
const itemsPrefix = 'kubebuilder:validation:items:';

/** Markers that shape the schema; the rest (requiredness, CRD-level, other tools) are read elsewhere. */
export function isSchemaMarker(marker: Marker): boolean {
  return schemaMarkers.has(baseName(marker.canonical));
}

function baseName(canonical: string): string {
  return canonical.startsWith(itemsPrefix) ? validation + canonical.slice(itemsPrefix.length) : canonical;
}

const schemaMarkers = new Set([
  ...[
    'Maximum', 'Minimum', 'ExclusiveMaximum', 'ExclusiveMinimum', 'MultipleOf', 'MinProperties', 'MaxProperties',
    'MaxLength', 'MinLength', 'Pattern', 'MaxItems', 'MinItems', 'UniqueItems', 'Enum', 'Format', 'Type',
    'XEmbeddedResource', 'XIntOrString', 'XValidation', 'ExactlyOneOf', 'AtMostOneOf', 'AtLeastOneOf',
  ].map((n) => validation + n),
  'kubebuilder:pruning:PreserveUnknownFields',
  'nullable',
  'kubebuilder:default',
  'default',
  'kubebuilder:example',
  'kubebuilder:title',
  'kubebuilder:externalDocs',
  'listType',
  'listMapKey',
  'mapType',
  'structType',
  'enum',
  'k8s:immutable',
]);

type Mode = 'max' | 'min' | 'flag' | 'multiple' | 'equal' | 'enum' | 'override';

const celReasons = new Set(['FieldValueInvalid', 'FieldValueForbidden', 'FieldValueRequired', 'FieldValueDuplicate']);

/**
 * Applies `markers` to `schema` in place, recording located errors in `sink.errors` and, in
 * `sink.checks`, the values (defaults, examples, CEL rules) that validation checks once the
 * walk is done.
 */
export function applySchemaMarkers(schema: JSONSchemaProps, markers: readonly Marker[], sink: { errors: UserError[]; checks: MarkerCheck[] }): void {
  const { errors, checks } = sink;
  const ordered = [...markers].filter(isSchemaMarker).sort((a, b) => priority(a) - priority(b));
  const setHere = new Map<JSONSchemaProps, Map<string, Marker>>();
  const mapKeys = new Map<JSONSchemaProps, Marker[]>();
  const topologyTouched = new Set<JSONSchemaProps>();

  for (const marker of ordered) {
    const fail = (message: string, hint?: string, location: Location = marker.location) =>
      errors.push(new UserError(message, location, hint));
    let target = schema;
    if (marker.canonical.startsWith(itemsPrefix)) {
      if (schema.type !== 'array' || !schema.items) {
        fail(`${marker.text} applies to list items, but this is not a list`, `use +${validation}${marker.canonical.slice(itemsPrefix.length)} instead`);
        continue;
      }
      target = schema.items;
    }
    const local = setHere.get(target) ?? new Map<string, Marker>();
    setHere.set(target, local);

    const set = (keyword: keyof JSONSchemaProps, value: unknown, mode: Mode): void => {
      const earlier = local.get(keyword);
      if (earlier) {
        const current = target[keyword] ?? (mode === 'flag' ? false : undefined);
        if (!isDeepStrictEqual(current, value)) {
          fail(`${keyword} given twice with different values (${earlier.text} and ${marker.text})`, 'keep one of them');
        }
        return;
      }
      local.set(keyword, marker);
      const existing = target[keyword];
      if (existing !== undefined && mode !== 'override') {
        const loosens = narrowingError(mode, existing, value);
        if (loosens) {
          fail(`${marker.text} ${loosens}`, 'a field may only narrow the limits of its type; change the type or the value');
          return;
        }
      }
      // controller-gen's flags are omitempty booleans: `=false` writes nothing.
      if (mode === 'flag' && value === false) return;
      (target as Record<string, unknown>)[keyword] = value;
    };

    const type = target.type;
    const numeric = type === 'integer' || type === 'number';
    const textual = type === 'string' || target['x-kubernetes-int-or-string'] === true;
    const requireType = (ok: boolean, what: string): boolean => {
      if (!ok) fail(`${marker.text} applies to ${what}, not to ${describeType(target)}`, 'remove the marker or change the type');
      return ok;
    };
    const integral = (value: number): boolean => {
      if (type === 'integer' && !Number.isInteger(value)) {
        fail(`${marker.text}: ${value} is not an integer, but the value is`);
        return false;
      }
      return true;
    };

    const base = baseName(marker.canonical).replace(validation, '');
    const value = marker.value;
    switch (base) {
      case 'Type': {
        const allowed = ['object', 'array', 'string', 'integer', 'number', 'boolean'];
        if (!allowed.includes(value as string)) fail(`${marker.text}: unknown type`, `one of ${allowed.join(', ')}`);
        else set('type', value, 'override');
        break;
      }
      case 'XIntOrString':
        delete target.type;
        target.anyOf = [{ type: 'integer' }, { type: 'string' }];
        set('x-kubernetes-int-or-string', true, 'override');
        break;
      case 'Maximum':
        if (requireType(numeric, 'numbers') && integral(value as number)) set('maximum', value, 'max');
        break;
      case 'Minimum':
        if (requireType(numeric, 'numbers') && integral(value as number)) set('minimum', value, 'min');
        break;
      case 'ExclusiveMaximum':
        if (requireType(numeric, 'numbers')) set('exclusiveMaximum', value, 'flag');
        break;
      case 'ExclusiveMinimum':
        if (requireType(numeric, 'numbers')) set('exclusiveMinimum', value, 'flag');
        break;
      case 'MultipleOf':
        if (requireType(numeric, 'numbers') && integral(value as number)) {
          if ((value as number) <= 0) fail(`${marker.text}: must be greater than 0`);
          else set('multipleOf', value, 'multiple');
        }
        break;
      case 'MaxLength':
        if (requireType(textual, 'strings')) set('maxLength', nonNegative(value, fail), 'max');
        break;
      case 'MinLength':
        if (requireType(textual, 'strings')) set('minLength', nonNegative(value, fail), 'min');
        break;
      case 'Pattern':
        if (requireType(textual, 'strings')) {
          const problem = patternProblem(value as string);
          if (problem) fail(`${marker.text}: ${problem}`, 'the API server uses RE2 regular expressions');
          else set('pattern', value, 'equal');
        }
        break;
      case 'MaxItems':
        if (requireType(type === 'array', 'lists')) set('maxItems', nonNegative(value, fail), 'max');
        break;
      case 'MinItems':
        if (requireType(type === 'array', 'lists')) set('minItems', nonNegative(value, fail), 'min');
        break;
      case 'UniqueItems':
        if (requireType(type === 'array', 'lists')) set('uniqueItems', value, 'flag');
        break;
      case 'MaxProperties':
        if (requireType(type === 'object', 'objects')) set('maxProperties', nonNegative(value, fail), 'max');
        break;
      case 'MinProperties':
        if (requireType(type === 'object', 'objects')) set('minProperties', nonNegative(value, fail), 'min');
        break;
      case 'Enum': {
        const values = (value as Literal[]).map((l) => resolveLiteral(l, target));
        const wrong = values.find((v) => !matchesType(v, target));
        if (wrong !== undefined) fail(`${marker.text}: ${JSON.stringify(wrong)} is not ${describeType(target)}`);
        else set('enum', values, 'enum');
        break;
      }
      case 'Format':
        set('format', value, 'equal');
        break;
      case 'kubebuilder:pruning:PreserveUnknownFields':
        set('x-kubernetes-preserve-unknown-fields', true, 'override');
        break;
      case 'XEmbeddedResource':
        if (requireType(type === 'object' || type === undefined, 'objects')) {
          target.type = 'object';
          set('x-kubernetes-embedded-resource', true, 'override');
        }
        break;
      case 'XValidation':
        addRule(target, celRule(value as Record<string, unknown>, marker, checks, fail));
        break;
      case 'ExactlyOneOf':
      case 'AtMostOneOf':
      case 'AtLeastOneOf':
        if (requireType(type === 'object', 'objects')) addRule(target, oneOfRule(base, value as string[], target, marker, fail));
        break;
      case 'nullable':
        set('nullable', true, 'override');
        break;
      case 'kubebuilder:default':
      case 'default': {
        const resolved = resolveLiteral(value as Literal, target);
        checks.push({ kind: 'value', keyword: 'default', node: target, value: resolved, marker });
        set('default', resolved, 'override');
        break;
      }
      case 'kubebuilder:example': {
        const resolved = resolveLiteral(value as Literal, target);
        checks.push({ kind: 'value', keyword: 'example', node: target, value: resolved, marker });
        set('example', resolved, 'override');
        break;
      }
      case 'kubebuilder:title':
        set('title', value, 'override');
        break;
      case 'kubebuilder:externalDocs': {
        const args = value as { url: string; description?: string };
        if (!URL.canParse(args.url)) fail(`${marker.text}: "${args.url}" is not a URL`);
        else set('externalDocs', { url: args.url, ...(args.description ? { description: args.description } : {}) }, 'override');
        break;
      }
      case 'listType':
        topologyTouched.add(target);
        if (!['atomic', 'set', 'map'].includes(value as string)) fail(`${marker.text}: unknown list type`, 'one of atomic, set, map');
        else if (requireType(type === 'array', 'lists')) set('x-kubernetes-list-type', value, 'override');
        break;
      case 'listMapKey':
        topologyTouched.add(target);
        if (requireType(type === 'array', 'lists')) {
          const keys = [...(mapKeys.get(target) ?? []), marker];
          mapKeys.set(target, keys);
          // Set now: a default (read after) must be checked for duplicate keys by these keys.
          target['x-kubernetes-list-map-keys'] = keys.map((k) => k.value as string);
        }
        break;
      case 'mapType':
      case 'structType':
        if (!['atomic', 'granular'].includes(value as string)) fail(`${marker.text}: unknown value`, 'one of atomic, granular');
        else if (requireType(type === 'object', base === 'mapType' ? 'maps' : 'objects')) set('x-kubernetes-map-type', value, 'override');
        break;
      case 'enum':
        if (!target.enum) fail(`${marker.text}: the type has no literal values to enumerate`, "declare it as a union of literals ('a' | 'b') or an enum");
        break;
      case 'k8s:immutable':
        addRule(target, { rule: 'self == oldSelf', message: 'field is immutable' });
        break;
    }
  }

  for (const target of topologyTouched) checkListMap(target, mapKeys.get(target), setHere.get(target)?.get('x-kubernetes-list-type'), errors);
}

function priority(marker: Marker): number {
  const base = baseName(marker.canonical);
  if (base === `${validation}Type` || base === `${validation}XIntOrString`) return 0;
  // Defaults and examples are read against the finished node (enums, types).
  if (base === 'kubebuilder:default' || base === 'default' || base === 'kubebuilder:example') return 2;
  // controller-gen appends one-of rules after the XValidation rules, in this order.
  if (base === `${validation}AtMostOneOf`) return 1.1;
  if (base === `${validation}ExactlyOneOf`) return 1.2;
  if (base === `${validation}AtLeastOneOf`) return 1.3;
  return 1;
}

function nonNegative(value: unknown, fail: (m: string) => void): number {
  const n = value as number;
  if (n < 0) fail(`must not be negative`);
  return n;
}

function narrowingError(mode: Mode, existing: unknown, value: unknown): string | undefined {
  switch (mode) {
    case 'max':
      return (value as number) > (existing as number) ? `loosens the type's limit of ${String(existing)}` : undefined;
    case 'min':
      return (value as number) < (existing as number) ? `loosens the type's limit of ${String(existing)}` : undefined;
    case 'flag':
      return existing === true && value === false ? 'loosens the type, which sets it to true' : undefined;
    case 'multiple':
      return (value as number) % (existing as number) !== 0 ? `is not a multiple of the type's ${String(existing)}` : undefined;
    case 'equal':
      return existing !== value ? `cannot be combined with the type's ${JSON.stringify(existing)}` : undefined;
    case 'enum': {
      const outside = (value as unknown[]).filter((v) => !(existing as unknown[]).some((e) => isDeepStrictEqual(e, v)));
      return outside.length ? `allows ${outside.map((v) => JSON.stringify(v)).join(', ')}, which the type does not` : undefined;
    }
    case 'override':
      return undefined;
  }
}

function describeType(schema: JSONSchemaProps): string {
  if (schema['x-kubernetes-int-or-string']) return 'an int-or-string';
  switch (schema.type) {
    case 'string':
      return 'a string';
    case 'integer':
      return 'an integer';
    case 'number':
      return 'a number';
    case 'boolean':
      return 'a boolean';
    case 'array':
      return 'a list';
    case 'object':
      return 'an object';
    default:
      return 'a value of any type';
  }
}

function matchesType(value: unknown, schema: JSONSchemaProps): boolean {
  if (value === null) return schema.nullable === true;
  if (schema['x-kubernetes-int-or-string']) return typeof value === 'string' || Number.isInteger(value);
  return schema.type === undefined || hasJsonType(schema.type, value);
}

function patternProblem(pattern: string): string | undefined {
  if (/\(\?<?[=!]/.test(pattern)) return 'look-around assertions are not supported';
  if (/\\[1-9]/.test(pattern)) return 'back-references are not supported';
  // The API server compiles patterns with Go's RE2, which has spellings JavaScript lacks (`(?i)`).
  const compiled = compileRe2(pattern);
  return 'error' in compiled ? `invalid regular expression (${compiled.error})` : undefined;
}

function addRule(target: JSONSchemaProps, rule: ValidationRule | undefined): void {
  if (!rule) return;
  const rules = (target['x-kubernetes-validations'] ??= []);
  if (!rules.some((r) => isDeepStrictEqual(r, rule))) rules.push(rule);
}

function celRule(
  args: Record<string, unknown>,
  marker: Marker,
  checks: MarkerCheck[],
  fail: (m: string, h?: string, l?: Location) => void,
): ValidationRule | undefined {
  const rule = args.rule as string;
  checks.push({ kind: 'cel', field: 'rule', expression: rule, marker });
  const reason = args.reason as string | undefined;
  if (reason !== undefined && !celReasons.has(reason)) {
    fail(`${marker.text}: unknown reason ${reason}`, `one of ${[...celReasons].join(', ')}`);
    return undefined;
  }
  const out: ValidationRule = { rule };
  if (args.message !== undefined) out.message = args.message as string;
  if (args.messageExpression !== undefined) {
    checks.push({ kind: 'cel', field: 'messageExpression', expression: args.messageExpression as string, marker });
    out.messageExpression = args.messageExpression as string;
  }
  if (reason !== undefined) out.reason = reason as ValidationRule['reason'];
  if (args.fieldPath !== undefined) out.fieldPath = args.fieldPath as string;
  if (args.optionalOldSelf !== undefined) out.optionalOldSelf = args.optionalOldSelf as boolean;
  return out;
}

/** CEL's spelling of a property name (`a-b` is `a__dash__b`). */
export function celField(name: string): string {
  if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !name.includes('__')) return name;
  return name
    .replace(/__/g, '__underscores__')
    .replace(/\./g, '__dot__')
    .replace(/-/g, '__dash__')
    .replace(/\//g, '__slash__');
}

function oneOfRule(
  kind: string,
  fields: string[],
  target: JSONSchemaProps,
  marker: Marker,
  fail: (m: string, h?: string) => void,
): ValidationRule | undefined {
  const unknown = fields.filter((f) => !target.properties?.[f]);
  if (unknown.length) {
    fail(`${marker.text} names ${unknown.join(', ')}, which ${unknown.length > 1 ? 'are not fields' : 'is not a field'} here`, `fields: ${Object.keys(target.properties ?? {}).sort().join(', ')}`);
    return undefined;
  }
  const required = fields.filter((f) => target.required?.includes(f));
  if (required.length) {
    fail(`${marker.text}: ${required.join(', ')} ${required.length > 1 ? 'are' : 'is'} required, so the constraint cannot hold`, 'make the fields optional (name?: T), as controller-gen requires');
    return undefined;
  }
  // controller-gen v0.21's rule and message, character for character (Go prints the list as [a b]).
  const list = `[${fields.join(' ')}]`;
  const count = `[${fields.map((f) => `has(self.${celField(f)})`).join(',')}].filter(x,x==true).size()`;
  if (kind === 'ExactlyOneOf') return { rule: `${count} == 1`, message: `exactly one of the fields in ${list} must be set` };
  if (kind === 'AtMostOneOf') return { rule: `${count} <= 1`, message: `at most one of the fields in ${list} may be set` };
  return { rule: `${count} >= 1`, message: `at least one of the fields in ${list} must be set` };
}

/**
 * controller-gen's rule on the object that holds an optional `+k8s:immutable` field: the
 * field's own rule does not run when the field is removed, so the parent forbids removing it.
 */
export function immutableParentRule(name: string): ValidationRule {
  return { rule: `!has(oldSelf.${celField(name)}) || has(self.${celField(name)})`, message: `field ${name} is immutable once set` };
}

function checkListMap(target: JSONSchemaProps, keyMarkers: Marker[] | undefined, typeMarker: Marker | undefined, errors: UserError[]): void {
  const keys = target['x-kubernetes-list-map-keys'] ?? [];
  const listType = target['x-kubernetes-list-type'];
  if (keyMarkers?.length && listType !== 'map') {
    errors.push(new UserError(`${keyMarkers[0]!.text} needs +listType=map`, keyMarkers[0]!.location, 'add +listType=map to the same field'));
    return;
  }
  if (listType !== 'map') {
    delete target['x-kubernetes-list-map-keys'];
    return;
  }
  const where = typeMarker?.location ?? keyMarkers?.[0]?.location;
  if (keys.length === 0) {
    errors.push(new UserError('+listType=map needs at least one +listMapKey', where, 'add +listMapKey=<field of the items>'));
    return;
  }
  const items = target.items;
  for (const key of keys) {
    const at = keyMarkers?.find((m) => m.value === key)?.location ?? where;
    const prop = items?.properties?.[key];
    if (!prop) {
      errors.push(new UserError(`list-map key ${key} is not a field of the list items`, at, `fields: ${Object.keys(items?.properties ?? {}).sort().join(', ')}`));
      continue;
    }
    if (!['string', 'integer', 'number', 'boolean'].includes(prop.type ?? '') && !prop['x-kubernetes-int-or-string']) {
      errors.push(new UserError(`list-map key ${key} must be a scalar (string, number or boolean)`, at));
      continue;
    }
    if (!items?.required?.includes(key) && prop.default === undefined) {
      errors.push(new UserError(`list-map key ${key} must be required or have a default`, at, `make ${key} required in the item type`));
    }
  }
}
