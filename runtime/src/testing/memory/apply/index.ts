/**
 * Server-side apply for the memory cluster, with the managedFields every write records:
 * `apply` for `PATCH` with `application/apply-patch+yaml`, `trackUpdate` for create, update
 * and the other patches. Plain functions over plain JSON objects; the server calls them from
 * its write pipeline.
 *
 * @example
 * const type = builtinKindType('v1', 'ConfigMap')!;
 * const { object } = apply({
 *   live,
 *   applied,
 *   manager: 'ctrl',
 *   type,
 *   apiVersion: 'v1',
 *   kind: 'ConfigMap',
 *   now: '2026-01-01T00:00:00Z',
 * });
 *
 * @module
 */
export {
  apply,
  trackUpdate,
  ApplyConflictError,
  ApplyBadRequestError,
  type ApplyInput,
  type ApplyResult,
  type ApplyConflict,
  type UpdateInput,
  type FieldManagerContext,
} from './apply.js';
export { managerFromRequest, type ManagedFieldsEntry } from './managed.js';
