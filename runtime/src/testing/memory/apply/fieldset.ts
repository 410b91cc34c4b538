/**
 * Sets of field paths, as structured-merge-diff's fieldpath.Set, stored in the shape of their
 * FieldsV1 encoding: each path element is the FieldsV1 key (`f:name`, `k:{"name":"a"}`,
 * `v:"x"`, `i:0`), each node says whether the path ending there is in the set (a member) and
 * holds the longer paths below it.
 */
export interface FieldNode {
  member: boolean;
  children: FieldSet;
}

export type FieldSet = Map<string, FieldNode>;

export function emptySet(): FieldSet {
  return new Map();
}

export function isEmpty(set: FieldSet): boolean {
  return set.size === 0;
}

export function insert(set: FieldSet, path: readonly string[]): void {
  let current = set;
  for (let i = 0; i < path.length; i++) {
    let node = current.get(path[i]!);
    if (!node) {
      node = { member: false, children: new Map() };
      current.set(path[i]!, node);
    }
    if (i === path.length - 1) node.member = true;
    current = node.children;
  }
}

export function has(set: FieldSet, path: readonly string[]): boolean {
  let current = set;
  for (let i = 0; i < path.length; i++) {
    const node = current.get(path[i]!);
    if (!node) return false;
    if (i === path.length - 1) return node.member;
    current = node.children;
  }
  return false;
}

/** The paths below `element`, relative to it. */
export function withPrefix(set: FieldSet, element: string): FieldSet {
  return set.get(element)?.children ?? new Map();
}

function node(member: boolean, children: FieldSet): FieldNode | undefined {
  return member || children.size > 0 ? { member, children } : undefined;
}

export function union(a: FieldSet, b: FieldSet): FieldSet {
  const out: FieldSet = new Map();
  for (const key of new Set([...a.keys(), ...b.keys()])) {
    const x = a.get(key);
    const y = b.get(key);
    out.set(key, { member: (x?.member ?? false) || (y?.member ?? false), children: union(x?.children ?? new Map(), y?.children ?? new Map()) });
  }
  return out;
}

export function intersection(a: FieldSet, b: FieldSet): FieldSet {
  const out: FieldSet = new Map();
  for (const [key, x] of a) {
    const y = b.get(key);
    if (!y) continue;
    const n = node(x.member && y.member, intersection(x.children, y.children));
    if (n) out.set(key, n);
  }
  return out;
}

/** The paths of `a` that are not in `b` (a member of `b` removes that path only). */
export function difference(a: FieldSet, b: FieldSet): FieldSet {
  const out: FieldSet = new Map();
  for (const [key, x] of a) {
    const y = b.get(key);
    const n = y ? node(x.member && !y.member, difference(x.children, y.children)) : x;
    if (n) out.set(key, n);
  }
  return out;
}

/** The paths of `a` that are neither in `b` nor below one of its members. */
export function recursiveDifference(a: FieldSet, b: FieldSet): FieldSet {
  const out: FieldSet = new Map();
  for (const [key, x] of a) {
    const y = b.get(key);
    if (y?.member) continue;
    const n = y ? node(x.member, recursiveDifference(x.children, y.children)) : x;
    if (n) out.set(key, n);
  }
  return out;
}

export function setsEqual(a: FieldSet, b: FieldSet): boolean {
  if (a.size !== b.size) return false;
  for (const [key, x] of a) {
    const y = b.get(key);
    if (!y || x.member !== y.member || !setsEqual(x.children, y.children)) return false;
  }
  return true;
}

/** Path elements in structured-merge-diff's order: field names, then keys, values, indexes. */
export function sortedKeys(set: FieldSet): string[] {
  return [...set.keys()].sort(compareElements);
}

const KIND_ORDER: Record<string, number> = { f: 0, k: 1, v: 2, i: 3 };

function compareElements(a: string, b: string): number {
  const kind = (KIND_ORDER[a[0]!] ?? 4) - (KIND_ORDER[b[0]!] ?? 4);
  if (kind !== 0) return kind;
  if (a[0] === 'i') return Number(a.slice(2)) - Number(b.slice(2));
  if (a[0] === 'f') return a < b ? -1 : a > b ? 1 : 0;
  return compareJson(JSON.parse(a.slice(2)), JSON.parse(b.slice(2)));
}

function compareJson(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    const ea = Object.entries(a);
    const eb = Object.entries(b);
    for (let i = 0; i < Math.min(ea.length, eb.length); i++) {
      const [ka, va] = ea[i]!;
      const [kb, vb] = eb[i]!;
      if (ka !== kb) return ka < kb ? -1 : 1;
      const c = compareJson(va, vb);
      if (c !== 0) return c;
    }
    return ea.length - eb.length;
  }
  const order = (v: unknown) => (v === null ? 0 : typeof v === 'boolean' ? 1 : typeof v === 'number' ? 2 : typeof v === 'string' ? 3 : 4);
  const c = order(a) - order(b);
  return c !== 0 ? c : String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
}

/** Every path of the set, members of a level before the levels below, as structured-merge-diff iterates. */
export function paths(set: FieldSet, prefix: string[] = []): string[][] {
  const keys = sortedKeys(set);
  const out: string[][] = [];
  for (const key of keys) if (set.get(key)!.member) out.push([...prefix, key]);
  for (const key of keys) out.push(...paths(set.get(key)!.children, [...prefix, key]));
  return out;
}

/** The FieldsV1 JSON of a set: `{}` for a member without children, `"."` for a member with some. */
export function toFieldsV1(set: FieldSet): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of sortedKeys(set)) {
    const { member, children } = set.get(key)!;
    const inner = toFieldsV1(children);
    out[key] = member && children.size > 0 ? { '.': {}, ...inner } : inner;
  }
  return out;
}

/** Parses FieldsV1 JSON; throws on anything else (the server then treats managedFields as unreadable). */
export function fromFieldsV1(json: unknown): FieldSet {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) throw new Error('FieldsV1 must be an object');
  const out: FieldSet = new Map();
  for (const [key, value] of Object.entries(json)) {
    if (key === '.') continue;
    if (!/^[fkvi]:/.test(key)) throw new Error(`invalid FieldsV1 path element ${key}`);
    if (key[0] === 'k' || key[0] === 'v') JSON.parse(key.slice(2));
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error('FieldsV1 values must be objects');
    const children = fromFieldsV1(value);
    const member = Object.keys(value).length === 0 || '.' in value;
    out.set(key, { member, children });
  }
  return out;
}

/** A path as the API server prints it: `.spec.containers[name="app"].image`. */
export function pathString(path: readonly string[]): string {
  return path
    .map((element) => {
      const body = element.slice(2);
      switch (element[0]) {
        case 'f':
          return `.${body}`;
        case 'k':
          return `[${Object.entries(JSON.parse(body) as Record<string, unknown>)
            .map(([k, v]) => `${k}=${valueString(v)}`)
            .join(',')}]`;
        case 'v':
          return `[=${valueString(JSON.parse(body))}]`;
        default:
          return `[${body}]`;
      }
    })
    .join('');
}

/** Go's value.ToString: strings quoted, numbers and booleans bare. */
function valueString(value: unknown): string {
  if (typeof value === 'string' || value === null || typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
