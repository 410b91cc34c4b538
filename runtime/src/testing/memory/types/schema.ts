/**
 * The type information server-side apply and strategic merge patch need, in the terms of
 * sigs.k8s.io/structured-merge-diff's schema: which values are lists (and whether a list is
 * atomic, a set, or a map keyed by some of its items' fields), which are maps and structs
 * (granular or atomic), and where the type is deduced from the value. Built-in kinds get it
 * from the API server's OpenAPI (builtin.generated.ts), custom resources from their CRD's
 * structural schema.
 *
 * A {@link TypeRef} is plain JSON so the generated table stays data:
 * - `'scalar'`: a string, number or boolean; one field. `'string'`, `'numeric'`,
 *   `'boolean'` and `'untyped'` (any scalar) are scalars of that kind (a custom resource's schema types its scalars, and an
 *   applied configuration is checked against them).
 * - `'any'`: anything, owned as one field (Quantity, RawExtension, an array without items).
 * - `'deduced'`: decided by the value (preserve-unknown-fields, an object without properties):
 *   an object is a granular map of deduced values, an array is atomic, the rest is a scalar.
 * - any other string: the name of a type in {@link TypeTable}.
 * - an object: a {@link ListType}, {@link MapType} or {@link RefType}.
 *
 * @example
 * const ref: TypeRef = { list: 'io.k8s.api.core.v1.Container', listType: 'map', keys: ['name'] };
 */
export type TypeRef = 'scalar' | ScalarKind | 'any' | 'deduced' | string | ListType | MapType | RefType;

/** structured-merge-diff's scalar types: an integer and a number are both `numeric`. */
export type ScalarKind = 'string' | 'numeric' | 'boolean' | 'untyped';

const SCALAR_KINDS: ReadonlySet<string> = new Set<ScalarKind>(['string', 'numeric', 'boolean', 'untyped']);

/** The {@link TypeRef} strings that name no table entry: a scalar, `any` or `deduced`. */
export const TYPE_KEYWORDS: ReadonlySet<string> = new Set(['scalar', ...SCALAR_KINDS, 'any', 'deduced']);

/** What strategic merge patch reads from a field: `x-kubernetes-patch-strategy` and its merge key. */
export interface PatchInfo {
  /** `merge`, `retainKeys`, `merge,retainKeys` or `replace`, as the OpenAPI writes it. */
  patchStrategy?: string;
  patchMergeKey?: string;
}

/** An array: `atomic` (replaced whole), `set` (scalars merged by value) or `map` (items merged by `keys`). */
export interface ListType extends PatchInfo {
  list: TypeRef;
  listType: 'atomic' | 'set' | 'map';
  keys?: string[];
  /** The schema defaults of key fields: an item without such a key field is keyed by its default (ServicePort's protocol `TCP`). */
  keyDefaults?: Record<string, unknown>;
}

/**
 * An object. `fields` are a struct's known fields; `values` the type of any other key (absent:
 * no other key is expected, so one is owned as a whole). `atomic` objects are replaced whole.
 */
export interface MapType extends PatchInfo {
  fields?: Record<string, TypeRef>;
  /**
   * Built-in kinds: the fields a Go zero value holds (no omitempty): `{}` for a struct, null for
   * a slice or map. The server compares a create with that zero value.
   */
  zero?: Record<string, Record<string, never> | null>;
  values?: TypeRef;
  mapType?: 'atomic';
}

/** A named type referred to with a field-level override (`x-kubernetes-map-type`, patch strategy). */
export interface RefType extends PatchInfo {
  ref: string;
  mapType?: 'atomic' | 'granular';
}

/** Named types by OpenAPI definition name. */
export type TypeTable = Readonly<Record<string, TypeRef>>;

/** The type of one kind: its root and the named types it refers to. */
export interface KindType {
  root: TypeRef;
  table: TypeTable;
}

/** A type with references resolved one level, and the atomic override a field may carry. */
export type Resolved =
  | { kind: 'scalar'; scalar?: ScalarKind }
  | { kind: 'any' }
  | { kind: 'deduced' }
  | { kind: 'list'; type: ListType }
  | { kind: 'map'; type: MapType; atomic: boolean };

/** Follows named references until a list, a map or a keyword. */
export function resolve(ref: TypeRef, table: TypeTable): Resolved {
  let atomicOverride: boolean | undefined;
  let current: TypeRef = ref;
  for (let depth = 0; depth < 64; depth++) {
    if (current === 'scalar' || current === 'any' || current === 'deduced') return { kind: current };
    if (typeof current === 'string' && SCALAR_KINDS.has(current)) return { kind: 'scalar', scalar: current as ScalarKind };
    if (typeof current === 'string') {
      const next = table[current];
      if (next === undefined) throw new Error(`type ${current} is not in the type table`);
      current = next;
      continue;
    }
    if ('ref' in current) {
      if (current.mapType !== undefined) atomicOverride ??= current.mapType === 'atomic';
      current = current.ref;
      continue;
    }
    if ('list' in current) return { kind: 'list', type: current };
    return { kind: 'map', type: current, atomic: atomicOverride ?? current.mapType === 'atomic' };
  }
  throw new Error('type references nest deeper than 64');
}

/** The type of `name` inside a map or struct; undefined when the key is not expected. */
export function fieldType(type: MapType, name: string): TypeRef | undefined {
  return type.fields?.[name] ?? type.values;
}
