/**
 * Walks a JSON value with its type, as structured-merge-diff's typed package does: the set of
 * fields a value sets, merging an applied configuration into the live object, comparing two
 * objects, and removing a set of fields. `undefined` is an absent value, `null` a null one.
 */
import { resolve, type ListType, type MapType, type ScalarKind, type TypeRef, type TypeTable } from '../types/schema.js';
import type { Json } from '../../../internal/semantics/types.js';
import { goType, goValueSharp, goValueV } from './go-format.js';
import { emptySet, has, insert, isEmpty, pathString, withPrefix, type FieldSet } from './fieldset.js';

export type { Json };

/** A value's shape under its type: deduced types take the value's shape, atomic lists and maps are leaves. */
type Shape = { kind: 'leaf' } | { kind: 'list'; type: ListType } | { kind: 'map'; type: MapType };

/** The types structured-merge-diff uses for deduced values: objects granular, arrays atomic. */
const DEDUCED_MAP: MapType = { values: 'deduced' };

function shapeOf(ref: TypeRef, value: Json | undefined, table: TypeTable): Shape {
  const resolved = resolve(ref, table);
  switch (resolved.kind) {
    case 'scalar':
    case 'any':
      return { kind: 'leaf' };
    case 'deduced':
      return isObject(value) ? { kind: 'map', type: DEDUCED_MAP } : { kind: 'leaf' };
    case 'list':
      return resolved.type.listType === 'atomic' ? { kind: 'leaf' } : { kind: 'list', type: resolved.type };
    case 'map':
      return resolved.atomic ? { kind: 'leaf' } : { kind: 'map', type: resolved.type };
  }
}

export function isObject(value: unknown): value is { [key: string]: Json } {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function fieldRef(type: MapType, name: string): TypeRef {
  // A key the schema does not declare is owned as a whole.
  return type.fields?.[name] ?? type.values ?? 'any';
}

/** Raised for a value the type cannot address: a list-map item without its key, duplicate keys. */
export class TypedValueError extends Error {}

/**
 * The path element (FieldsV1 key) of a set or list-map item. A list-map item keys by the key
 * fields it has (or their defaults): structured-merge-diff refuses only an item without any.
 */
export function itemElement(type: ListType, item: Json, path: string): string {
  if (type.listType === 'map' && (type.keys?.length ?? 0) > 0) {
    if (item === null) throw new TypedValueError(`${path}: associative list with keys may not have a null element`);
    if (!isObject(item)) throw new TypedValueError(`${path}: associative list with keys may not have non-map elements`);
    const key: Record<string, Json> = {};
    for (const name of [...type.keys!].sort()) {
      const value = item[name] ?? (type.keyDefaults?.[name] as Json | undefined);
      if (value !== undefined) key[name] = value;
    }
    if (Object.keys(key).length === 0) {
      throw new TypedValueError(`${path}: associative list with keys has an element that omits all key fields ${goStrings(type.keys!)} (and doesn't have default values for any key fields)`);
    }
    return `k:${JSON.stringify(key)}`;
  }
  if (isObject(item)) throw new TypedValueError(`${path}: associative list without keys has an element that's a map type`);
  if (Array.isArray(item)) throw new TypedValueError(`${path}: not supported: associative list with lists as elements`);
  if (item === null) throw new TypedValueError(`${path}: associative list without keys has an element that's an explicit null`);
  return `v:${JSON.stringify(item)}`;
}

/** Go's %q of a []string. */
function goStrings(items: readonly string[]): string {
  return `[${items.map((item) => JSON.stringify(item)).join(' ')}]`;
}

/**
 * The fields a value sets (typed.ToFieldSet). `strict`, for an applied configuration: duplicate
 * list-map keys and undeclared fields are errors, as the API server's typed conversion of the patch.
 */
export function toFieldSet(value: Json, ref: TypeRef, table: TypeTable, strict = false): FieldSet {
  if (strict) {
    const errors: string[] = [];
    validateTyped(value, ref, table, [], errors);
    // structured-merge-diff's ValidationErrors: one error alone, several under "errors:".
    if (errors.length === 1) throw new TypedValueError(errors[0]);
    if (errors.length > 1) throw new TypedValueError(['errors:', ...errors.map((error) => `  ${error}`)].join('\n'));
  }
  const out = emptySet();
  walkSet(value, ref, table, [], out);
  return out;
}

function walkSet(value: Json, ref: TypeRef, table: TypeTable, path: string[], out: FieldSet): void {
  const shape = shapeOf(ref, value, table);
  if (shape.kind === 'leaf') {
    if (path.length > 0) insert(out, path);
    return;
  }
  if (shape.kind === 'list') {
    if (!Array.isArray(value)) return;
    for (const item of value) {
      const itemPath = [...path, itemElement(shape.type, item, pathString(path))];
      walkSet(item, shape.type.list, table, itemPath, out);
      insert(out, itemPath);
    }
    return;
  }
  if (!isObject(value)) return;
  for (const [key, child] of Object.entries(value)) {
    const childPath = [...path, `f:${key}`];
    walkSet(child, fieldRef(shape.type, key), table, childPath, out);
    // A null or empty value, or a key of a map (not a declared struct field), is itself owned.
    if (child === null || (isObject(child) && Object.keys(child).length === 0) || shape.type.fields?.[key] === undefined) insert(out, childPath);
  }
}

/**
 * What the API server's typed conversion of an applied configuration refuses
 * (structured-merge-diff's typed/validate.go), atomic parts included: a scalar of another
 * kind, a value that is no list or map where the type has one, list items without keys or
 * with duplicate keys (the rest of that list is not looked at), undeclared fields.
 */
function validateTyped(value: Json, ref: TypeRef, table: TypeTable, path: string[], errors: string[]): void {
  const resolved = resolve(ref, table);
  const at = pathString(path);
  switch (resolved.kind) {
    case 'any':
    case 'deduced':
      return;
    case 'scalar': {
      const problem = resolved.scalar ? scalarProblem(resolved.scalar, value) : undefined;
      if (problem) errors.push(`${at}: ${problem}`);
      return;
    }
    case 'list': {
      if (value === null) return;
      if (!Array.isArray(value)) {
        errors.push(`${at}: expected list, got ${goValueV(value)}`);
        return;
      }
      const type = resolved.type;
      const seen = new Set<string>();
      for (const [index, item] of value.entries()) {
        let element = `i:${index}`;
        if (type.listType === 'map' || type.listType === 'set') {
          try {
            element = itemElement(type, item, at);
          } catch (error) {
            if (!(error instanceof TypedValueError)) throw error;
            errors.push(`${at}: element ${index}: ${error.message.slice(at.length + 2)}`);
            return;
          }
          if (seen.has(element)) errors.push(`${at}: duplicate entries for key ${pathString([element])}`);
          seen.add(element);
        }
        validateTyped(item, type.list, table, [...path, element], errors);
      }
      return;
    }
    case 'map': {
      if (value === null) return;
      if (!isObject(value)) {
        errors.push(`${at}: expected map, got ${goValueV(value)}`);
        return;
      }
      for (const [key, child] of Object.entries(value)) {
        const declared = resolved.type.fields?.[key] ?? resolved.type.values;
        if (declared === undefined) errors.push(`${pathString([...path, `f:${key}`])}: field not declared in schema`);
        else validateTyped(child, declared, table, [...path, `f:${key}`], errors);
      }
    }
  }
}

/** structured-merge-diff's validateScalar: null is any scalar; an integer and a float are both numeric. */
function scalarProblem(kind: ScalarKind, value: Json): string | undefined {
  if (value === null) return undefined;
  if (kind === 'numeric' && typeof value !== 'number') return `expected numeric (int or float), got ${goType(value)}`;
  if (kind === 'string' && typeof value !== 'string') return `expected string, got ${goValueSharp(value)}`;
  if (kind === 'boolean' && typeof value !== 'boolean') return `expected boolean, got ${goValueV(value)}`;
  if (kind === 'untyped' && typeof value === 'object') return `expected any scalar, got ${goValueV(value)}`;
  return undefined;
}

/** Merges `rhs` (the applied configuration) into `lhs` (the live object), as typed.Merge. */
export function merge(lhs: Json | undefined, rhs: Json | undefined, ref: TypeRef, table: TypeTable, path = ''): Json | undefined {
  if (rhs === undefined) return lhs;
  if (lhs === undefined) return rhs;
  const right = shapeOf(ref, rhs, table);
  const left = shapeOf(ref, lhs, table);
  if (right.kind !== left.kind || right.kind === 'leaf') return rhs;
  if (right.kind === 'list') {
    const l = Array.isArray(lhs) ? lhs : [];
    const r = Array.isArray(rhs) ? rhs : [];
    if (l.length === 0 && r.length === 0) return rhs;
    return mergeList(l, r, right.type, table, path);
  }
  const l = isObject(lhs) ? lhs : {};
  const r = isObject(rhs) ? rhs : {};
  if (Object.keys(l).length === 0 && Object.keys(r).length === 0) return rhs;
  const out: { [key: string]: Json } = {};
  for (const key of new Set([...Object.keys(l), ...Object.keys(r)])) {
    const merged = merge(l[key], r[key], fieldRef(right.type as MapType, key), table, `${path}.${key}`);
    if (merged !== undefined) out[key] = merged;
  }
  return out;
}

/**
 * Items present on both sides come in the applied order; live items the configuration does not
 * name keep their place relative to those around them.
 */
function mergeList(lhs: Json[], rhs: Json[], type: ListType, table: TypeTable, path: string): Json[] {
  const rhsKeys = rhs.map((item) => itemElement(type, item, path));
  const rhsByKey = new Map<string, Json>();
  rhsKeys.forEach((key, i) => {
    if (rhsByKey.has(key)) throw new TypedValueError(`${path}: duplicate entries for key ${pathString([key])}`);
    rhsByKey.set(key, rhs[i]!);
  });
  const lhsKeys = lhs.map((item) => itemElement(type, item, path));
  const lhsByKey = new Map<string, Json | undefined>();
  lhsKeys.forEach((key, i) => lhsByKey.set(key, lhsByKey.has(key) ? undefined : lhs[i]!));
  const shared = rhsKeys.filter((key) => lhsByKey.has(key));
  let nextShared = shared.shift();
  const done = new Set<string>();
  const out: Json[] = [];
  const push = (l: Json | undefined, r: Json | undefined, key: string) => {
    const merged = merge(l, r, type.list, table, `${path}[${key}]`);
    if (merged !== undefined) out.push(merged);
  };
  let li = 0;
  let ri = 0;
  while (li < lhs.length || ri < rhs.length) {
    if (li < lhs.length && ri < rhs.length) {
      const key = lhsKeys[li]!;
      if (key === rhsKeys[ri]) {
        done.add(key);
        push(lhsByKey.get(key), rhsByKey.get(key), key);
        li++;
        ri++;
        nextShared = shared.shift();
        continue;
      }
      if (rhsByKey.has(key) && nextShared !== undefined && nextShared !== key) {
        li++;
        continue;
      }
    }
    if (li < lhs.length) {
      const key = lhsKeys[li]!;
      if (!rhsByKey.has(key)) {
        push(lhs[li], undefined, key);
        li++;
        continue;
      } else if (done.has(key)) li++;
    }
    if (ri < rhs.length) {
      const key = rhsKeys[ri]!;
      done.add(key);
      push(lhsByKey.get(key), rhsByKey.get(key), key);
      ri++;
      if (nextShared === key) nextShared = shared.shift();
    }
  }
  return out;
}

/** What changed from `lhs` to `rhs`, as typed.Compare. */
export interface Comparison {
  added: FieldSet;
  modified: FieldSet;
  removed: FieldSet;
}

export function compare(lhs: Json, rhs: Json, ref: TypeRef, table: TypeTable): Comparison {
  const out: Comparison = { added: emptySet(), modified: emptySet(), removed: emptySet() };
  walkCompare(lhs, rhs, ref, table, [], out);
  return out;
}

function walkCompare(lhs: Json | undefined, rhs: Json | undefined, ref: TypeRef, table: TypeTable, path: string[], out: Comparison): void {
  const right = rhs === undefined ? undefined : shapeOf(ref, rhs, table);
  const left = lhs === undefined ? undefined : shapeOf(ref, lhs, table);
  const shape = right ?? left!;
  const leaf = () => {
    if (lhs === undefined) insert(out.added, path);
    else if (rhs === undefined) insert(out.removed, path);
    else if (!deepEqual(lhs, rhs)) insert(out.modified, path);
  };
  if (shape.kind === 'leaf' || (left && right && left.kind !== right.kind)) return leaf();
  if (shape.kind === 'list') {
    const l = Array.isArray(lhs) ? lhs : [];
    const r = Array.isArray(rhs) ? rhs : [];
    if (l.length === 0 && r.length === 0) return leaf();
    compareList(l, r, shape.type, table, path, out);
  } else {
    const l = isObject(lhs) ? lhs : {};
    const r = isObject(rhs) ? rhs : {};
    if (Object.keys(l).length === 0 && Object.keys(r).length === 0) return leaf();
    for (const key of new Set([...Object.keys(l), ...Object.keys(r)])) {
      walkCompare(l[key], r[key], fieldRef(shape.type, key), table, [...path, `f:${key}`], out);
    }
  }
  if (path.length === 0) return;
  if (lhs === undefined) insert(out.added, path);
  else if (rhs === undefined) insert(out.removed, path);
}

function compareList(lhs: Json[], rhs: Json[], type: ListType, table: TypeTable, path: string[], out: Comparison): void {
  const order: string[] = [];
  const group = (items: Json[]) => {
    const byKey = new Map<string, Json[]>();
    for (const item of items) {
      const key = itemElement(type, item, pathString(path));
      if (!byKey.has(key)) {
        byKey.set(key, []);
        if (!order.includes(key)) order.push(key);
      }
      byKey.get(key)!.push(item);
    }
    return byKey;
  };
  const l = group(lhs);
  const r = group(rhs);
  for (const key of order) {
    const ls = l.get(key) ?? [];
    const rs = r.get(key) ?? [];
    const itemPath = [...path, key];
    if (ls.length <= 1 && rs.length <= 1) walkCompare(ls[0], rs[0], type.list, table, itemPath, out);
    else if (ls.length >= 2 && rs.length >= 2) {
      if (!deepEqual(ls, rs)) insert(out.modified, itemPath);
    } else if (ls.length >= 2) {
      if (rs.length > 0) walkCompare(undefined, rs[0], type.list, table, itemPath, out);
      insert(out.removed, itemPath);
    } else {
      if (ls.length > 0) walkCompare(ls[0], undefined, type.list, table, itemPath, out);
      insert(out.added, itemPath);
    }
  }
}

/**
 * The value without the fields in `set` (typed.RemoveItems): a removed list item or key goes
 * with everything below it; a list or map left empty becomes null, as upstream.
 */
export function removeItems(value: Json, set: FieldSet, ref: TypeRef, table: TypeTable, path = ''): Json {
  const shape = shapeOf(ref, value, table);
  if (shape.kind === 'leaf') {
    const resolved = resolve(ref, table).kind;
    // Atomic lists and maps are only ever removed whole, by their parent.
    return resolved === 'list' || resolved === 'map' ? null : value;
  }
  if (shape.kind === 'list') {
    if (!Array.isArray(value) || value.length === 0) return null;
    const out: Json[] = [];
    for (const item of value) {
      const key = itemElement(shape.type, item, path);
      if (has(set, [key])) continue;
      const below = withPrefix(set, key);
      out.push(isEmpty(below) ? item : removeItems(item, below, shape.type.list, table, path));
    }
    return out.length > 0 ? out : null;
  }
  if (!isObject(value) || Object.keys(value).length === 0) return null;
  const out: { [key: string]: Json } = {};
  for (const [key, child] of Object.entries(value)) {
    if (has(set, [`f:${key}`])) continue;
    const below = withPrefix(set, `f:${key}`);
    out[key] = isEmpty(below) ? child : removeItems(child, below, fieldRef(shape.type, key), table, `${path}.${key}`);
  }
  return Object.keys(out).length > 0 ? out : null;
}

/**
 * The set with every declared struct field that has owned fields below it a member too
 * (fieldpath.Set.EnsureNamedFieldsAreMembers), so removing it removes the struct.
 */
export function ensureNamedFieldsAreMembers(set: FieldSet, ref: TypeRef | undefined, table: TypeTable): FieldSet {
  const resolved = ref === undefined ? undefined : resolve(ref, table);
  const out: FieldSet = new Map();
  for (const [key, node] of set) {
    let childRef: TypeRef | undefined;
    let named = false;
    if (key.startsWith('f:') && resolved?.kind === 'map') {
      const name = key.slice(2);
      named = resolved.type.fields?.[name] !== undefined;
      childRef = resolved.type.fields?.[name] ?? resolved.type.values;
    } else if (key.startsWith('f:') && resolved?.kind === 'deduced') {
      childRef = 'deduced';
    } else if (key.startsWith('k:') && resolved?.kind === 'list') {
      childRef = resolved.type.list;
    }
    out.set(key, { member: node.member || (named && node.children.size > 0), children: ensureNamedFieldsAreMembers(node.children, childRef, table) });
  }
  return out;
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => deepEqual(x, bb[i]));
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b as object);
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(b as object, k) && deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}
