/**
 * The seams of the write pipeline where the schema part (wave3-schema: CRD admission,
 * pruning, defaulting, structural and CEL validation) and the apply part (wave3-ssa:
 * server-side apply, managedFields) plug in. `pipeline.ts` calls these at the places the
 * API server does; each part replaces its entries in {@link DEFAULT_HOOKS} (or a test
 * passes its own to `createMemoryServer`).
 *
 * Until a part is wired in, its hook does what is written beside it, never a silent guess.
 */
import type { FieldError } from './errors.js';
import { serverSideApply, updateManagedFields } from './field-manager.js';
import { pruneAndDefault, validateCustomResource, validateCustomResourceDefinition } from './schema-hooks.js';
import type { Obj } from './storage.js';
import type { DecodedFrom, WriteContext } from './write-context.js';

export interface PipelineHooks {
  /**
   * Custom resources only, at decode time (before anything else looks at the body):
   * prune unknown fields, then apply the schema's defaults, as apiextensions-apiserver's
   * codec does. Returns the object to continue with, or throws a StatusError (e.g. Strict
   * field validation refusing unknown fields).
   */
  pruneAndDefault(context: WriteContext, object: Obj, from?: DecodedFrom): Obj;
  /**
   * Custom resources only, after the strategy prepared the object: structural schema and
   * `x-kubernetes-validations` (CEL, with `live` as oldSelf on updates). Field errors make
   * a 422 Invalid.
   */
  validateCustomResource(context: WriteContext, object: Obj): FieldError[];
  /**
   * A CustomResourceDefinition being created or updated: what apiextensions-apiserver
   * refuses (422 with its messages). Returns field errors.
   */
  validateCustomResourceDefinition(context: WriteContext, crd: Obj): FieldError[];
  /**
   * PATCH `application/apply-patch+yaml`: merges the applied configuration into `live`
   * (undefined: the object does not exist yet, apply creates it), owning fields for
   * `fieldManager`; throws the 409 conflict when `force` is not set.
   */
  serverSideApply(context: WriteContext, applied: Obj, force: boolean): Obj;
  /**
   * Every non-apply write (create, update, patch), before the strategy runs, as the
   * handler's field manager does: records the fields `fieldManager` changed from `live`
   * to `object` in `object.metadata.managedFields` (operation `Update`).
   */
  updateManagedFields(context: WriteContext, object: Obj): Obj;
}

export const DEFAULT_HOOKS: PipelineHooks = {
  // The schema part (schema-hooks.ts).
  pruneAndDefault,
  validateCustomResource,
  validateCustomResourceDefinition,
  // Server-side apply and managedFields (field-manager.ts, from ../apply).
  serverSideApply,
  updateManagedFields,
};
