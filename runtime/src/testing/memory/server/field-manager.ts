/**
 * The memory server's field manager: server-side apply (`hooks.serverSideApply`) and the
 * managedFields of every other write (`hooks.updateManagedFields`), from the apply part
 * (`../apply`) with each resource's type information (`../types`).
 */
import { parse } from 'yaml';
import { apply, ApplyBadRequestError, ApplyConflictError, managerFromRequest, trackUpdate } from '../apply/index.js';
import { builtinKindType, crdKindType, type CrdLike, type KindType } from '../types/index.js';
import { badRequest, formatValue, invalid, notImplemented, StatusError, type FieldError, type StatusBody } from './errors.js';
import type { WriteContext } from './write-context.js';
import { apiVersionOf, type ResourceInfo } from './resources.js';
import type { Obj } from './storage.js';
import { dryRunErrors, fieldValidationErrors } from './request-options.js';

/**
 * The in-process transport carries no headers; over HTTP the runtime's transport says
 * `user-agent: opgen-runtime`, which is what the API server names an update without
 * `?fieldManager=` after.
 */
const USER_AGENT = 'opgen-runtime';

const crdTypes = new WeakMap<object, Map<string, KindType>>();

/** The type information of a served resource; 501 for a built-in kind the table lacks. */
export function kindTypeOf(info: ResourceInfo): KindType {
  if (info.crd) {
    let byVersion = crdTypes.get(info.crd);
    if (!byVersion) crdTypes.set(info.crd, (byVersion = new Map()));
    let type = byVersion.get(info.version);
    if (!type) byVersion.set(info.version, (type = crdKindType(info.crd as CrdLike, info.version)));
    return type;
  }
  const type = builtinKindType(apiVersionOf(info), info.kind);
  if (!type) throw notImplemented(`type information for ${apiVersionOf(info)} ${info.kind} (server-side apply, managedFields)`);
  return type;
}

/** RFC 3339 with seconds, as managedFields times are written. */
function timestamp(nowMs: number): string {
  return new Date(Math.floor(nowMs / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/**
 * The fields the strategy resets, never owned by the request: `status` through the main
 * resource of a kind with a status subresource; `spec` and `metadata` through `/status`
 * (kube-apiserver 1.36 records no metadata field for a status writer).
 */
function resetFields(context: WriteContext): string[][] {
  if (!context.resource.status) return [];
  return context.subresource === 'status' ? [['spec'], ['metadata']] : [['status']];
}

function fieldManagerContext(context: WriteContext) {
  const info = context.resource;
  return {
    type: kindTypeOf(info),
    apiVersion: apiVersionOf(info),
    kind: info.kind,
    now: timestamp(context.nowMs),
    subresource: context.subresource || undefined,
    resetFields: resetFields(context),
  };
}

/**
 * The body of an apply patch: YAML (or JSON, which is YAML) text, or an object the in-process
 * transport passed as is. 400 as the API server's YAML decoder answers.
 */
export function decodeApplyBody(body: unknown): Obj {
  let value = body;
  if (typeof body === 'string' || body instanceof Uint8Array) {
    try {
      value = parse(typeof body === 'string' ? body : Buffer.from(body).toString('utf8'));
    } catch (error) {
      throw badRequest(`error decoding YAML: ${(error as Error).message}`);
    }
  }
  if (value === null || value === undefined) return {} as Obj;
  if (typeof value !== 'object' || Array.isArray(value)) throw badRequest('error decoding YAML: the apply patch must be an object');
  return structuredClone(value) as Obj;
}

/**
 * 422 for write options the API server refuses (`ValidateCreateOptions`/`UpdateOptions`/
 * `PatchOptions`): a fieldManager over 128 bytes or with unprintable characters, none for an
 * apply, `force` on another patch, an unknown `dryRun` or `fieldValidation`.
 */
export function validateWriteOptions(
  options: 'CreateOptions' | 'UpdateOptions' | 'PatchOptions',
  query: { fieldManager?: string; force?: string; dryRun?: string; fieldValidation?: string },
  apply = false,
): void {
  const errors: FieldError[] = [];
  const manager = query.fieldManager ?? '';
  if (options === 'PatchOptions') {
    if (!apply && query.force !== undefined) errors.push({ type: 'FieldValueForbidden', field: 'force', detail: 'may not be specified for non-apply patch' });
    if (apply && manager === '') errors.push({ type: 'FieldValueRequired', field: 'fieldManager', detail: 'is required for apply patch' });
  }
  if (Buffer.byteLength(manager) > 128) errors.push({ type: 'FieldValueTooLong', field: 'fieldManager', detail: 'may not be more than 128 bytes' });
  [...manager].forEach((ch, i) => {
    if (/\p{C}/u.test(ch)) {
      const code = `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
      errors.push({ type: 'FieldValueInvalid', field: 'fieldManager', value: formatValue(manager), detail: `invalid character ${code} (at position ${i})` });
    }
  });
  errors.push(...dryRunErrors(query.dryRun), ...fieldValidationErrors(query.fieldValidation));
  if (errors.length > 0) throw invalid({ group: 'meta.k8s.io', kind: options }, '', errors);
}

export function serverSideApply(context: WriteContext, applied: Obj, force: boolean): Obj {
  try {
    const { object } = apply({
      ...fieldManagerContext(context),
      live: context.live as never,
      applied: applied as never,
      manager: context.fieldManager ?? '',
      force,
    });
    return object as Obj;
  } catch (error) {
    if (error instanceof ApplyConflictError) throw new StatusError(error.status as unknown as StatusBody);
    if (error instanceof ApplyBadRequestError) throw badRequest(error.message);
    if (error instanceof StatusError) throw error;
    // A plain error of the field manager: the API server answers 500 with no reason.
    throw new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: (error as Error).message, code: 500 });
  }
}

/**
 * The managedFields of a create, update or non-apply patch. As the API server's handlers call
 * the field manager (`UpdateNoErrors`), a failure to track the fields does not fail the
 * request: the object goes on without managedFields, and validation says what is wrong with
 * it (a map list item without its key is a 422 `Required value`, not a 500).
 */
export function updateManagedFields(context: WriteContext, object: Obj): Obj {
  try {
    return trackUpdate({
      ...fieldManagerContext(context),
      live: context.live as never,
      updated: object as never,
      manager: managerFromRequest(context.fieldManager, USER_AGENT),
    }) as Obj;
  } catch (error) {
    if (error instanceof StatusError) throw error;
    delete object.metadata.managedFields;
    return object;
  }
}
