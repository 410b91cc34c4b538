/**
 * Strategic merge patch for built-in kinds, as apimachinery's `strategicpatch` applies
 * it: maps merge like a JSON merge patch; lists merge by their `x-kubernetes-patch-merge-key`
 * when their patch strategy is `merge` (an item `{"$patch": "delete", key: v}` removes one,
 * `$patch: replace` replaces the list), lists of scalars with strategy `merge` union, other
 * lists are replaced; `$retainKeys`, `$deleteFromPrimitiveList/<field>` and
 * `$setElementOrder/<field>` directives are honoured.
 *
 * Patch strategies and merge keys come from the built-in kinds' OpenAPI schemas (the types
 * part, `../types`). A kind without them is refused with 501, never applied as a plain merge.
 */
import { builtinKindType, fieldType, resolve, type KindType, type TypeRef } from '../types/index.js';
import { badRequest, notImplemented, storageFailure } from './errors.js';
import type { ResourceInfo } from './resources.js';
import { isObject, type Obj } from './storage.js';

/** What strategic merge needs to know about one node of a kind's schema. */
export interface PatchNode {
  /** The node of a field of this object node. */
  field(name: string): PatchNode | undefined;
  /** The node of the items of this list node (or of the values of a map). */
  items(): PatchNode | undefined;
  /** `x-kubernetes-patch-strategy`, e.g. `merge`, `retainKeys`, `merge,retainKeys`, `replace`. */
  patchStrategy?: string;
  /** `x-kubernetes-patch-merge-key`. */
  mergeKey?: string;
}

/** The node of `ref` in a kind's type table; the patch directives a field carries sit on its reference. */
function nodeOf(ref: TypeRef, type: KindType): PatchNode {
  const info = typeof ref === 'object' ? ref : {};
  const resolved = resolve(ref, type.table);
  return {
    patchStrategy: info.patchStrategy,
    mergeKey: info.patchMergeKey,
    field(name) {
      if (resolved.kind !== 'map') return undefined;
      const child = fieldType(resolved.type, name);
      return child === undefined ? undefined : nodeOf(child, type);
    },
    items() {
      if (resolved.kind === 'list') return nodeOf(resolved.type.list, type);
      if (resolved.kind === 'map' && resolved.type.values !== undefined) return nodeOf(resolved.type.values, type);
      return undefined;
    },
  };
}

export function strategicMergePatch(info: ResourceInfo, live: Obj, patch: unknown): Obj {
  if (!isObject(patch)) throw badRequest('the body of a strategic merge patch must be a JSON object');
  const apiVersion = info.group === '' ? info.version : `${info.group}/${info.version}`;
  const type = builtinKindType(apiVersion, info.kind);
  const root = type && nodeOf(type.root, type);
  if (!root) throw notImplemented(`strategic merge patch of ${info.kind} (no patch type information for it; use a JSON merge patch or server-side apply)`);
  return mergeMap(structuredClone(live), patch, root);
}

function mergeMap(original: Obj, patch: Obj, node: PatchNode | undefined): Obj {
  if (patch.$patch === 'replace') {
    const { $patch: _replace, ...rest } = patch;
    return stripDirectives(rest) as Obj;
  }
  if (patch.$patch === 'delete') return {};
  checkSetElementOrder(patch);
  const out: Obj = { ...original };
  const retainKeys: string[] | undefined = patch.$retainKeys;
  for (const [key, value] of Object.entries(patch)) {
    if (key === '$retainKeys' || key === '$patch') continue;
    if (key.startsWith('$setElementOrder/')) continue;
    if (key.startsWith('$deleteFromPrimitiveList/')) {
      const field = key.slice('$deleteFromPrimitiveList/'.length);
      if (Array.isArray(out[field]) && Array.isArray(value)) out[field] = out[field].filter((item: unknown) => !value.includes(item));
      continue;
    }
    if (value === null) {
      delete out[key];
      continue;
    }
    const child = node?.field(key);
    out[key] = mergeValue(out[key], value, child);
  }
  if (retainKeys) for (const key of Object.keys(out)) if (!retainKeys.includes(key) && !(key in patch)) delete out[key];
  for (const [key, order] of Object.entries(patch)) {
    if (key.startsWith('$setElementOrder/') && Array.isArray(order)) {
      const field = key.slice('$setElementOrder/'.length);
      const mergeKey = node?.field(field)?.mergeKey;
      if (Array.isArray(out[field])) out[field] = reorder(out[field], order, mergeKey);
    }
  }
  return out;
}

/**
 * The `$setElementOrder` directives are read before anything else is merged: every key that
 * starts with `$setElementOrder` must hold a list (else the API server answers 500 with Go's
 * type assertion message) and name its field after a `/` (else 400).
 */
function checkSetElementOrder(patch: Obj): void {
  for (const [key, value] of Object.entries(patch)) {
    if (!key.startsWith('$setElementOrder')) continue;
    if (!Array.isArray(value)) throw storageFailure(`expected a []interface {}, but received a ${goTypeName(value)}`);
    if (!key.startsWith('$setElementOrder/')) throw badRequest('invalid patch format of setElementOrder list');
  }
}

/** The Go type a JSON value decodes to in the API server's patch map (apimachinery's JSON keeps whole numbers as int64), as `%s` prints it. */
function goTypeName(value: unknown): string {
  if (value === null) return '%!s(<nil>)';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int64' : 'float64';
  return 'map[string]interface {}';
}

function mergeValue(original: unknown, patch: unknown, node: PatchNode | undefined): unknown {
  if (isObject(patch)) return mergeMap(isObject(original) ? original : {}, patch, node);
  if (Array.isArray(patch)) return mergeList(Array.isArray(original) ? original : [], patch, node);
  return patch;
}

function mergeList(original: unknown[], patch: unknown[], node: PatchNode | undefined): unknown[] {
  const strategy = node?.patchStrategy ?? '';
  const replaceDirective = patch.find((item) => isObject(item) && item.$patch === 'replace' && Object.keys(item).length === 1);
  if (replaceDirective) return stripDirectives(patch.filter((item) => item !== replaceDirective)) as unknown[];
  if (!strategy.split(',').includes('merge')) return stripDirectives(patch) as unknown[];
  const items = node?.items();
  const mergeKey = node?.mergeKey;
  // The merged list interleaves the patch's items (in the patch's order) with the items only
  // the server had (in their order): a server-only item goes first when it stood before the
  // patch item in the server's list, as strategicpatch's mergeSortedSlice decides.
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  if (!mergeKey || !patch.every(isObject)) {
    const fromPatch: unknown[] = [];
    for (const item of patch) if (!fromPatch.some((o) => same(o, item))) fromPatch.push(item);
    const serverOnly = original.filter((o) => !fromPatch.some((p) => same(p, o)));
    return interleave(serverOnly, fromPatch, (item) => original.findIndex((o) => same(o, item)));
  }
  const keyOf = (item: unknown) => (isObject(item) ? item[mergeKey] : undefined);
  const merged: unknown[] = [];
  for (const item of patch as Obj[]) {
    if (item.$patch === 'delete') continue;
    const existing = original.find((o) => keyOf(o) === item[mergeKey]);
    merged.push(existing === undefined ? stripDirectives(item) : mergeMap(existing as Obj, item, items));
  }
  const patchKeys = (patch as Obj[]).map((item) => item[mergeKey]);
  const serverOnly = original.filter((o) => !patchKeys.includes(keyOf(o)));
  return interleave(serverOnly, merged, (item) => original.findIndex((o) => keyOf(o) === keyOf(item)));
}

/** Merges two ordered lists: `left` first only when both items were in the server's list and `left`'s stood earlier. */
function interleave(left: unknown[], right: unknown[], serverIndex: (item: unknown) => number): unknown[] {
  const out: unknown[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    if (j >= right.length) out.push(left[i++]);
    else if (i >= left.length) out.push(right[j++]);
    else {
      const li = serverIndex(left[i]);
      const ri = serverIndex(right[j]);
      if (li >= 0 && ri >= 0 && li < ri) out.push(left[i++]);
      else out.push(right[j++]);
    }
  }
  return out;
}

function reorder(list: unknown[], order: unknown[], mergeKey: string | undefined): unknown[] {
  const keyOf = (item: unknown) => (mergeKey && isObject(item) ? item[mergeKey] : item);
  const wanted = order.map((o) => keyOf(o));
  const ordered = wanted.map((k) => list.find((item) => keyOf(item) === k)).filter((item) => item !== undefined);
  const rest = list.filter((item) => !wanted.includes(keyOf(item)));
  return [...ordered, ...rest];
}

function stripDirectives(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripDirectives);
  if (isObject(value)) {
    const out: Obj = {};
    for (const [key, item] of Object.entries(value)) if (!key.startsWith('$')) out[key] = stripDirectives(item);
    return out;
  }
  return value;
}
