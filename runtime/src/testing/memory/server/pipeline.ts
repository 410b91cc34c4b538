/**
 * The write pipeline of the memory API server, in kube-apiserver's order (handlers
 * create.go / update.go / patch.go, then `registry.Store.Create`/`Update`):
 *
 *  1. decode the body (patch: apply it to the live object first; apply: `hooks.serverSideApply`)
 *  2. custom resources: `hooks.pruneAndDefault` (apiextensions' codec prunes, then defaults)
 *  3. NamespaceLifecycle admission (create)
 *  4. `hooks.updateManagedFields` (the handler's field manager, operation Update)
 *  5. update: optimistic concurrency (409 Conflict, or 422 when a custom resource's PUT has no resourceVersion)
 *  6. strategy: `prepareForCreate` / `prepareForUpdate` / `prepareForStatusUpdate` (status separation, generation)
 *  7. validation: object metadata, then `hooks.validateCustomResource` (schema + CEL) or
 *     `hooks.validateCustomResourceDefinition`; any error is 422 Invalid
 *  8. store (AlreadyExists on create; an update that changes nothing stores nothing; an update
 *     that removes the last finalizer of an object being deleted deletes it) → watch event
 */
import { alreadyExists, badRequest, conflict, invalid, registryKey, StatusError, storageFailure, notFound, OPTIMISTIC_LOCK_MESSAGE, unsupportedMediaType, type FieldError } from './errors.js';
import { decodeBody, encodeObject } from './codec.js';
import { pruneCustomObject, type CrdLike, type JsonObject } from '../../../internal/semantics/index.js';
import { storageVersion } from './registry.js';
import { decodeBuiltin } from './builtin-decode.js';
import { validateBuiltin } from './builtin-validation.js';
import type { Operation, WriteContext } from './write-context.js';
import { admitCreate } from './namespace-lifecycle.js';
import { jsonPatch, mergePatch } from './patch.js';
import { groupKind, groupResource, type ResourceInfo } from './resources.js';
import { commit, liveObject, type Reply, type ServerState, type Target } from './state.js';
import type { Obj } from './storage.js';
import { strategicMergePatch } from './strategic-merge-patch.js';
import { deepEqual, prepareForCreate, prepareForStatusUpdate, prepareForUpdate, validateCreateMeta, validateUpdateMeta } from './strategy.js';
import { onCustomResourceDefinitionWritten } from './crd-lifecycle.js';
import { decodeApplyBody, validateWriteOptions } from './field-manager.js';

/** Query parameters the write handlers read. */
export interface WriteQuery {
  fieldManager?: string;
  fieldValidation?: string;
  dryRun?: string;
  force?: string;
}

export const JSON_PATCH = 'application/json-patch+json';
export const MERGE_PATCH = 'application/merge-patch+json';
export const STRATEGIC_MERGE_PATCH = 'application/strategic-merge-patch+json';
export const APPLY_PATCH = 'application/apply-patch+yaml';

function context(state: ServerState, target: Target, operation: Operation, live: Obj | undefined, query: WriteQuery): WriteContext {
  return {
    resource: target.info,
    operation,
    subresource: target.subresource,
    live,
    fieldManager: query.fieldManager,
    fieldValidation: query.fieldValidation,
    warnings: [],
    nowMs: state.now(),
  };
}

/** `checkName`: the body must name the object the URL names (an empty namespace takes the URL's). */
function checkNameAndNamespace(info: ResourceInfo, object: Obj, namespace: string | undefined, name: string | undefined): void {
  const meta = object.metadata;
  if (name !== undefined && meta.name !== name) throw badRequest(`the name of the object (${meta.name ?? ''}) does not match the name on the URL (${name})`);
  if (info.namespaced) {
    if (meta.namespace && namespace && meta.namespace !== namespace) throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
    if (namespace) meta.namespace = namespace;
  } else {
    delete meta.namespace;
  }
}

function refuseInvalid(info: ResourceInfo, name: string, errors: FieldError[]): void {
  if (errors.length > 0) throw invalid(groupKind(info), name, errors);
}

/**
 * Validation as the registry runs it. Create: the kind's `Validate` (object metadata, then
 * its fields; custom resources: schema and CEL). Update: `validateCommonFields` (metadata,
 * then metadata update rules), then the kind's `ValidateUpdate` (metadata update rules again,
 * then for built-ins metadata and fields, for custom resources schema and CEL); an error
 * both find is a cause twice and once in the message, as the API server answers it.
 */
function validate(state: ServerState, ctx: WriteContext, object: Obj, old: Obj | undefined): void {
  const { resource: info } = ctx;
  const meta = validateCreateMeta(info, object);
  const kindErrors = (): FieldError[] => {
    if (info.crd) return state.hooks.validateCustomResource(ctx, object);
    if (info.group === 'apiextensions.k8s.io' && info.kind === 'CustomResourceDefinition') return state.hooks.validateCustomResourceDefinition(ctx, object);
    return validateBuiltin(info, object, old);
  };
  let errors: FieldError[];
  if (!old) {
    errors = [...meta, ...kindErrors()];
  } else {
    const metaUpdate = validateUpdateMeta(object, old);
    errors = [...meta, ...metaUpdate, ...metaUpdate, ...(info.crd ? [] : meta), ...kindErrors()];
  }
  refuseInvalid(info, object.metadata.name ?? '', errors);
}

/** POST to a collection. */
export function create(state: ServerState, target: Target, body: unknown, query: WriteQuery): Reply {
  const { info, namespace } = target;
  validateWriteOptions('CreateOptions', query);
  const object = decodeBody(info, body);
  checkNameAndNamespace(info, object, namespace, undefined);
  return createDecoded(state, target, object, query, 'POST');
}

function createDecoded(state: ServerState, target: Target, decoded: Obj, query: WriteQuery, via: 'POST' | 'PUT' | 'APPLY'): Reply {
  const { info } = target;
  const ctx = context(state, target, 'CREATE', undefined, query);
  let object = decoded;
  if (!info.crd) object = decodeBuiltin(ctx, object);
  if (info.crd && via !== 'APPLY') object = state.hooks.pruneAndDefault(ctx, object);
  admitCreate(state, info, object.metadata.namespace, object.metadata.name ?? object.metadata.generateName ?? '');
  // A new object is not being deleted: what a client sends there is dropped before fields are tracked.
  delete object.metadata.deletionTimestamp;
  delete object.metadata.deletionGracePeriodSeconds;
  if (via !== 'APPLY') object = state.hooks.updateManagedFields(ctx, object);
  if (object.metadata.resourceVersion) throw storageFailure('resourceVersion should not be set on objects to be created');
  prepareForCreate(info, object, ctx.nowMs);
  validate(state, ctx, object, undefined);
  if (liveObject(state, info, object.metadata.namespace, object.metadata.name)) throw alreadyExists(groupResource(info), object.metadata.name);
  object = stored(info, object);
  if (query.dryRun !== 'All') {
    commit(state, info, 'ADDED', object, undefined);
    onCustomResourceDefinitionWritten(state, info, object);
  }
  return { code: 201, body: shown(info, object), warnings: ctx.warnings };
}

/** PUT to an object or its `/status`. */
export function update(state: ServerState, target: Target, body: unknown, query: WriteQuery): Reply {
  const { info, namespace, name } = target;
  validateWriteOptions('UpdateOptions', query);
  const object = decodeBody(info, body);
  checkNameAndNamespace(info, object, namespace, name);
  const live = liveObject(state, info, namespace, name!);
  if (!live) {
    if (!info.allowCreateOnUpdate || target.subresource) throw notFound(groupResource(info), name!);
    return createDecoded(state, target, object, query, 'PUT');
  }
  const sentUid = object.metadata.uid;
  if (sentUid && sentUid !== live.metadata.uid) {
    // A PUT's uid is a precondition of the storage update, checked before anything else (a patch's is validated instead).
    const key = registryKey(info.group, info.plural, info.crd !== undefined, live.metadata.namespace, live.metadata.name);
    throw conflict(groupResource(info), live.metadata.name, `StorageError: invalid object, Code: 4, Key: ${key}, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: ${sentUid}, UID in object meta: ${live.metadata.uid}`);
  }
  const ctx = context(state, target, 'UPDATE', live, query);
  return updateDecoded(state, ctx, object, live, query, false);
}

/**
 * Steps 2 and 4–8 for an object that exists. `patched`: the body came from a patch, whose
 * resourceVersion is the live one unless the patch set another.
 */
function updateDecoded(state: ServerState, ctx: WriteContext, decoded: Obj, live: Obj, query: WriteQuery, applied: boolean, patched?: unknown): Reply {
  const info = ctx.resource;
  let object = decoded;
  if (!info.crd) object = decodeBuiltin(ctx, object, applied ? { applied: true } : patched === undefined ? undefined : { patched });
  if (info.crd && !applied) object = state.hooks.pruneAndDefault(ctx, object, patched === undefined ? undefined : { patched });
  if (!applied) object = state.hooks.updateManagedFields(ctx, object);
  const sent = object.metadata.resourceVersion;
  if (!sent) {
    if (!info.allowUnconditionalUpdate) {
      throw invalid({ group: info.group, kind: info.plural }, live.metadata.name, [
        { type: 'FieldValueInvalid', field: 'metadata.resourceVersion', value: '0', detail: 'must be specified for an update' },
      ]);
    }
  } else if (!/^\d+$/.test(sent)) {
    throw storageFailure(`strconv.ParseUint: parsing ${JSON.stringify(sent)}: invalid syntax`);
  } else if (sent !== live.metadata.resourceVersion) {
    throw conflict(groupResource(info), live.metadata.name, OPTIMISTIC_LOCK_MESSAGE);
  }
  if (ctx.subresource === 'status') {
    object = prepareForStatusUpdate(info, object, live, ctx.nowMs);
  } else {
    prepareForUpdate(info, object, live);
  }
  validate(state, ctx, object, live);
  object.metadata.resourceVersion = live.metadata.resourceVersion;
  object = stored(info, object);
  if (deepEqual(withoutVersion(object), withoutVersion(live))) return { code: 200, body: shown(info, live), warnings: ctx.warnings };
  if (query.dryRun === 'All') return { code: 200, body: shown(info, object), warnings: ctx.warnings };
  const meta = object.metadata;
  if (meta.deletionTimestamp && (meta.finalizers ?? []).length === 0 && (meta.deletionGracePeriodSeconds ?? 0) === 0) {
    // `shouldDeleteDuringUpdate`: the last finalizer of an object being deleted is gone.
    delete meta.finalizers;
    // The answer is the object as this update left it, at the resourceVersion it had; what is
    // deleted (and what watches see go) is the object as stored, finalizers and all.
    commit(state, info, 'DELETED', structuredClone(live), live);
    return { code: 200, body: shown(info, object), warnings: ctx.warnings };
  }
  commit(state, info, 'MODIFIED', object, live);
  onCustomResourceDefinitionWritten(state, info, object);
  return { code: 200, body: shown(info, object), warnings: ctx.warnings };
}

/**
 * A custom object as storage keeps it: pruned by its storage version's schema (a field only
 * the request's version has is not stored), as the API server stores one of another version.
 */
function stored(info: ResourceInfo, object: Obj): Obj {
  if (!info.crd || info.version === storageVersion(info)) return object;
  return pruneCustomObject({ crd: info.crd as CrdLike, version: storageVersion(info), object: object as JsonObject }) as Obj;
}

/** The answer to a write: what was stored, read back in the request's version. */
function shown(info: ResourceInfo, object: Obj): Obj {
  return info.crd ? encodeObject(info, object, 'object') : object;
}

/** The stored form compared for a no-op: apiVersion differs between versions of one CRD only. */
function withoutVersion(object: Obj): Obj {
  const { apiVersion: _apiVersion, ...rest } = object;
  return rest;
}

/** The patch types the resource accepts, in the order the API server lists them. */
function patchTypes(info: ResourceInfo): string[] {
  return info.strategicMergePatch ? [JSON_PATCH, MERGE_PATCH, STRATEGIC_MERGE_PATCH, APPLY_PATCH] : [JSON_PATCH, MERGE_PATCH, APPLY_PATCH];
}

/** PATCH of an object or its `/status`. */
export function patch(state: ServerState, target: Target, body: unknown, contentType: string | undefined, query: WriteQuery): Reply {
  const { info, namespace, name } = target;
  const type = (contentType ?? '').split(';')[0]!.trim();
  if (!patchTypes(info).includes(type)) {
    // A patch type the API server knows but this resource does not take is named; any other media type gets the handler's bare 415.
    if ([JSON_PATCH, MERGE_PATCH, STRATEGIC_MERGE_PATCH, APPLY_PATCH].includes(type)) throw unsupportedMediaType(patchTypes(info));
    throw new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: '415: Unsupported Media Type', reason: 'UnsupportedMediaType', details: {}, code: 415 });
  }
  if (type !== APPLY_PATCH) validateWriteOptions('PatchOptions', query);
  const live = liveObject(state, info, namespace, name!);
  if (type === APPLY_PATCH) return apply(state, target, body, live, query);
  if (!live) throw notFound(groupResource(info), name!);
  // The patch applies to the object as a GET in the request's version shows it.
  const current = encodeObject(info, live, 'object');
  let patched: unknown;
  if (type === JSON_PATCH) patched = jsonPatch(current, body);
  else if (type === MERGE_PATCH) patched = mergePatch(current, body);
  else patched = strategicMergePatch(info, current, body);
  const object = decodeBody(info, patched);
  checkNameAndNamespace(info, object, namespace, name);
  const ctx = context(state, target, 'UPDATE', live, query);
  return updateDecoded(state, ctx, object, live, query, false, patched);
}

/** Server-side apply: the merge is the apply part's (`hooks.serverSideApply`); creating a missing object is allowed. */
function apply(state: ServerState, target: Target, body: unknown, live: Obj | undefined, query: WriteQuery): Reply {
  const { info, namespace, name } = target;
  validateWriteOptions('PatchOptions', query, true);
  // The apply patch is not decoded as the kind: the field manager checks its apiVersion and
  // kind itself, and the object's name is checked on the result.
  const applied = decodeApplyBody(body);
  const ctx = context(state, target, live ? 'UPDATE' : 'CREATE', live, query);
  if (!live && target.subresource) throw notFound(groupResource(info), name!);
  // A uid in an apply is a precondition: it names an object that must exist.
  const sentUid = (applied.metadata as { uid?: unknown } | undefined)?.uid;
  if (!live && sentUid) throw conflict(groupResource(info), name!, `uid mismatch: the provided object specified uid ${String(sentUid)}, and no existing object was found`);
  let merged = decodeBody(info, state.hooks.serverSideApply(ctx, applied, query.force === 'true'));
  checkNameAndNamespace(info, merged, namespace, name);
  if (info.crd) merged = state.hooks.pruneAndDefault(ctx, merged, { applied: true });
  if (!live) return createDecoded(state, target, merged, query, 'APPLY');
  return updateDecoded(state, ctx, merged, live, query, true);
}
