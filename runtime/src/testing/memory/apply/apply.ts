/**
 * Server-side apply and the ownership every other write records, in the order the API
 * server's field manager runs them (apimachinery's managedfields: skip-non-applied,
 * manager info, managed-fields updater, strip-meta, structured-merge-diff's Updater).
 */
import type { KindType, TypeRef } from '../types/schema.js';
import { zeroObject } from '../types/zero.js';
import { difference, emptySet, insert, intersection, isEmpty, paths, pathString, recursiveDifference, union, type FieldSet } from './fieldset.js';
import { capUpdateManagers, decodeManaged, describeManager, encodeManaged, identifier, type Managed, type Ownership } from './managed.js';
import { compare, deepEqual, ensureNamedFieldsAreMembers, isObject, merge, removeItems, toFieldSet, TypedValueError, type Comparison, type Json } from './typed.js';

type JsonObject = { [key: string]: Json };

/** The metadata the server owns; no manager is recorded as owning them. */
const STRIPPED = (() => {
  const set = emptySet();
  insert(set, ['f:apiVersion']);
  insert(set, ['f:kind']);
  insert(set, ['f:metadata']);
  for (const name of ['name', 'namespace', 'creationTimestamp', 'selfLink', 'uid', 'clusterName', 'generation', 'managedFields', 'resourceVersion']) {
    insert(set, ['f:metadata', `f:${name}`]);
  }
  return set;
})();

/** Where the API server's field manager is told about the request. */
export interface FieldManagerContext {
  /** The kind's type information (builtinKindType or crdKindType). */
  type: KindType;
  /** The resource's apiVersion, e.g. `apps/v1`: what Update entries record. */
  apiVersion: string;
  kind: string;
  /** The time entries record, RFC 3339 with seconds (`2026-01-02T03:04:05Z`). */
  now: string;
  /** `status` for requests to the status subresource. */
  subresource?: string;
  /**
   * Paths the strategy resets, never owned by this request: `[['status']]` on the main resource
   * of a kind with a status subresource, `[['spec']]` on its status subresource.
   */
  resetFields?: string[][];
}

export interface ApplyInput extends FieldManagerContext {
  /** The stored object; undefined when the apply creates it. */
  live: JsonObject | undefined;
  /** The apply patch, decoded. */
  applied: JsonObject;
  manager: string;
  force?: boolean;
}

/** What an apply leaves: the object with managedFields, and whether the stored object changes. */
export interface ApplyResult {
  object: JsonObject;
  changed: boolean;
}

/** One field an applier would take from another manager. */
export interface ApplyConflict {
  /** The other manager's entry, as the message names it: `"kubectl" using apps/v1`. */
  manager: string;
  /** `.spec.replicas` */
  field: string;
}

/**
 * An apply that would change fields other managers own: the API server's 409 (reason
 * Conflict, one FieldManagerConflict cause per field). `status` is the Status body.
 */
export class ApplyConflictError extends Error {
  readonly code = 409;
  constructor(readonly conflicts: ApplyConflict[]) {
    super(conflictMessage(conflicts));
  }

  get status(): Record<string, unknown> {
    return {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: this.message,
      reason: 'Conflict',
      details: { causes: this.conflicts.map((c) => ({ reason: 'FieldManagerConflict', message: `conflict with ${c.manager}`, field: c.field })) },
      code: 409,
    };
  }
}

/** An apply the API server refuses as a bad request (400), with its message. */
export class ApplyBadRequestError extends Error {
  readonly code = 400;
}

function conflictMessage(conflicts: ApplyConflict[]): string {
  if (conflicts.length === 1) return `Apply failed with 1 conflict: conflict with ${conflicts[0]!.manager}: ${conflicts[0]!.field}`;
  const byManager = new Map<string, string[]>();
  for (const c of conflicts) byManager.set(c.manager, [...(byManager.get(c.manager) ?? []), c.field]);
  const lines: string[] = [];
  for (const manager of [...byManager.keys()].sort()) {
    lines.push(`conflicts with ${manager}:`, ...byManager.get(manager)!.map((field) => `- ${field}`));
  }
  return `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
}

/**
 * Server-side apply: merges `applied` into `live` by the kind's schema, records `manager` as
 * owning exactly the fields it applied, removes fields it applied before, no longer applies and
 * nobody else owns, and refuses (ApplyConflictError) to change fields other managers own
 * unless `force` (then they lose them).
 *
 * @example
 * const { object } = apply({
 *   live,
 *   applied,
 *   manager: 'my-controller',
 *   force: true,
 *   type,
 *   apiVersion: 'apps/v1',
 *   kind: 'Deployment',
 *   now,
 * });
 */
export function apply(input: ApplyInput): ApplyResult {
  const { applied, type } = input;
  const gvk = `${applied.apiVersion ?? ''}/${applied.kind ?? ''}`;
  if (gvk !== `${input.apiVersion}/${input.kind}`) {
    const [group, version] = typeof applied.apiVersion === 'string' && applied.apiVersion.includes('/') ? applied.apiVersion.split('/', 2) : ['', applied.apiVersion ?? ''];
    throw new ApplyBadRequestError(`invalid object type: ${group}/${version}, Kind=${applied.kind ?? ''}`);
  }
  if (isObject(applied.metadata) && applied.metadata.managedFields !== undefined && applied.metadata.managedFields !== null) {
    throw new ApplyBadRequestError('metadata.managedFields must be nil');
  }
  const live = withoutManagedFields(input.live ?? (zeroObject(type) as JsonObject));
  let managed: Managed;
  try {
    managed = decodeManaged(isObject(input.live?.metadata) ? input.live.metadata.managedFields : undefined);
  } catch (error) {
    throw new Error(`failed to decode managed fields: ${(error as Error).message}`);
  }
  // An object nobody has applied to yet: what it holds is owned by "before-first-apply", so an
  // applier cannot silently take fields some earlier writer set.
  if (managed.size === 0) {
    managed = recordUpdate(zeroObject(type) as JsonObject, live, managed, 'before-first-apply', input);
  }
  const id = identifier({ manager: input.manager, operation: 'Apply', subresource: input.subresource, apiVersion: input.apiVersion });
  const ignored = resetSet(input.resetFields);
  const root = type.root;
  const table = type.table;
  let merged: Json;
  let appliedSet: FieldSet;
  try {
    appliedSet = recursiveDifference(toFieldSet(applied, root, table, true), ignored);
    merged = merge(live, applied, root, table) as Json;
  } catch (error) {
    if (error instanceof TypedValueError) {
      const meta = isObject(applied.metadata) ? applied.metadata : {};
      const name = `${typeof meta.namespace === 'string' ? meta.namespace : ''}/${typeof meta.name === 'string' ? meta.name : ''}`;
      throw new Error(`failed to create typed patch object (${name}; ${describeGvk(input)}): ${error.message}`);
    }
    throw error;
  }
  const last = managed.get(id);
  const ownership: Ownership = { manager: input.manager, operation: 'Apply', apiVersion: input.apiVersion, set: appliedSet };
  if (input.subresource) ownership.subresource = input.subresource;
  if (last?.time) ownership.time = last.time;
  managed.set(id, ownership);
  const pruned = prune(merged, managed, last?.set, root, table);
  const changed = !deepEqual(live, pruned);
  const result = updateOwnership(live, pruned, managed, id, input.force === true, ignored, root, table);
  stripMeta(result);
  if (changed && result.has(id)) result.get(id)!.time = input.now;
  const object = (changed ? pruned : live) as JsonObject;
  return { object: withManagedFields(object, result), changed };
}

export interface UpdateInput extends FieldManagerContext {
  /** The stored object; undefined for a create. */
  live: JsonObject | undefined;
  /** The object the write stores (after patching, before the strategy), managedFields as the client sent them. */
  updated: JsonObject;
  /** `?fieldManager=`, else the user agent's part before the first `/` (see {@link managerFromRequest}). */
  manager: string;
}

/**
 * The managedFields a create, update or (non-apply) patch stores: the manager gets the fields it
 * changed, others lose them (never a conflict). A client may replace managedFields with valid
 * entries, or clear them with `[]` or `[{}]`; otherwise those of the stored object carry on. An
 * existing object without managedFields is not tracked until someone applies.
 *
 * @example
 * const object = trackUpdate({
 *   live,
 *   updated,
 *   manager: 'kubectl',
 *   type,
 *   apiVersion: 'v1',
 *   kind: 'ConfigMap',
 *   now,
 * });
 */
export function trackUpdate(input: UpdateInput): JsonObject {
  const creating = input.live === undefined;
  const live = withoutManagedFields(input.live ?? (zeroObject(input.type) as JsonObject));
  const updated = withoutManagedFields(input.updated);
  const managed = liveOrRequestManaged(input);
  if (managed.size === 0 && !creating) return updated;
  const result = recordUpdate(live, updated, managed, input.manager, input);
  capUpdateManagers(result);
  return withManagedFields(updated, result);
}


function liveOrRequestManaged(input: UpdateInput): Managed {
  const fromLive = () => {
    try {
      return decodeManaged(isObject(input.live?.metadata) ? input.live.metadata.managedFields : undefined);
    } catch {
      return new Map() as Managed;
    }
  };
  if (input.subresource) return fromLive();
  const requested = isObject(input.updated.metadata) ? input.updated.metadata.managedFields : undefined;
  if (Array.isArray(requested) && (requested.length === 0 || (requested.length === 1 && isObject(requested[0]) && Object.keys(requested[0]).length === 0))) {
    return new Map();
  }
  try {
    const managed = decodeManaged(requested);
    return managed.size === 0 ? fromLive() : managed;
  } catch {
    return fromLive();
  }
}

/** An Update by `manager`: it owns what it changed, on top of what it owned. */
function recordUpdate(live: JsonObject, updated: JsonObject, managed: Managed, manager: string, context: FieldManagerContext): Managed {
  const { root, table } = context.type;
  const ignored = resetSet(context.resetFields);
  const self = '\u0000current-operation';
  const result = updateOwnership(live, updated, managed, self, true, ignored, root, table);
  stripMeta(result);
  const changes = result.get(self);
  if (changes) {
    // Only a write that changed something the manager may own moves its entry's time.
    result.delete(self);
    const current: Ownership = { manager, operation: 'Update', apiVersion: context.apiVersion, set: changes.set };
    // A /scale write's entry has no time: the API server records it on the Scale object and
    // carries only its fields over to the main resource (managedfields.ScaleHandler.ToParent).
    if (context.subresource !== 'scale') current.time = context.now;
    if (context.subresource) current.subresource = context.subresource;
    const id = identifier(current);
    const previous = result.get(id);
    if (previous) current.set = union(changes.set, previous.set);
    result.set(id, current);
  }
  return result;
}

/**
 * Who owns what after `workflow` turns `oldObject` into `newObject` (structured-merge-diff's
 * Updater.update, plus Update's own set): others lose what changed; without force a change to
 * a field someone else owns is a conflict.
 */
function updateOwnership(oldObject: Json, newObject: Json, managed: Managed, workflow: string, force: boolean, ignored: FieldSet, root: TypeRef, table: KindType['table']): Managed {
  const diff = excludeFields(compare(oldObject, newObject, root, table), ignored);
  const changed = union(diff.modified, diff.added);
  const conflicts = new Map<string, FieldSet>();
  const out: Managed = new Map();
  for (const [id, ownership] of managed) {
    if (id === workflow) {
      out.set(id, ownership);
      continue;
    }
    const conflict = intersection(ownership.set, changed);
    if (!isEmpty(conflict)) conflicts.set(id, conflict);
    out.set(id, { ...ownership, set: difference(difference(ownership.set, conflict), diff.removed) });
  }
  if (!force && conflicts.size > 0) {
    const list: ApplyConflict[] = [];
    for (const id of [...conflicts.keys()].sort()) {
      for (const path of paths(conflicts.get(id)!)) list.push({ manager: describeManager(id), field: pathString(path) });
    }
    throw new ApplyConflictError(list);
  }
  if (!managed.has(workflow) && workflow.startsWith('\u0000')) {
    out.set(workflow, { manager: workflow, operation: 'Update', apiVersion: '', set: emptySet() });
  }
  const self = out.get(workflow);
  if (self && workflow.startsWith('\u0000')) {
    self.set = recursiveDifference(union(union(difference(self.set, diff.removed), diff.modified), diff.added), ignored);
  }
  for (const [id, ownership] of out) if (isEmpty(ownership.set)) out.delete(id);
  return out;
}

/**
 * Removes what the applier owned last time, no longer applies and nobody else owns
 * (structured-merge-diff's Updater.prune, with its add-back of owned and dangling items).
 */
function prune(merged: Json, managed: Managed, last: FieldSet | undefined, root: TypeRef, table: KindType['table']): Json {
  if (!last || isEmpty(last)) return merged;
  const named = (set: FieldSet) => ensureNamedFieldsAreMembers(set, root, table);
  const lastNamed = named(last);
  const pruned0 = removeItems(merged, lastNamed, root, table);
  let owned = emptySet();
  for (const ownership of managed.values()) owned = union(owned, ownership.set);
  const mergedSet = named(toFieldSet(merged, root, table));
  const pruned0Set = named(toFieldSet(pruned0, root, table));
  const pruned1 = removeItems(merged, difference(mergedSet, union(pruned0Set, named(owned))), root, table);
  const pruned1Set = named(toFieldSet(pruned1, root, table));
  return removeItems(merged, intersection(difference(mergedSet, pruned1Set), lastNamed), root, table);
}

function excludeFields(diff: Comparison, ignored: FieldSet): Comparison {
  if (isEmpty(ignored)) return diff;
  return {
    added: recursiveDifference(diff.added, ignored),
    modified: recursiveDifference(diff.modified, ignored),
    removed: recursiveDifference(diff.removed, ignored),
  };
}

function stripMeta(managed: Managed): void {
  for (const [id, ownership] of managed) {
    ownership.set = difference(ownership.set, STRIPPED);
    if (isEmpty(ownership.set)) managed.delete(id);
  }
}

function resetSet(resetFields: string[][] | undefined): FieldSet {
  const set = emptySet();
  for (const path of resetFields ?? []) insert(set, path.map((name) => `f:${name}`));
  return set;
}

function withoutManagedFields(object: JsonObject): JsonObject {
  if (!isObject(object.metadata) || !('managedFields' in object.metadata)) return object;
  const { managedFields: _, ...metadata } = object.metadata;
  return { ...object, metadata };
}

function withManagedFields(object: JsonObject, managed: Managed): JsonObject {
  const base = withoutManagedFields(object);
  const entries = encodeManaged(managed);
  if (entries.length === 0) return base;
  const metadata = isObject(base.metadata) ? base.metadata : {};
  return { ...base, metadata: { ...metadata, managedFields: entries as unknown as Json } };
}

function describeGvk(input: FieldManagerContext): string {
  const [group, version] = input.apiVersion.includes('/') ? input.apiVersion.split('/', 2) : ['', input.apiVersion];
  return `${group}/${version}, Kind=${input.kind}`;
}
