/**
 * Helpers controllers use on objects: ownership, finalizers and status conditions.
 *
 * Public surface:
 * - `setControllerReference(owner, ownerKind, object)` (throws `AlreadyOwnedError` when
 *   another controller owns it), `setOwnerReference(owner, ownerKind, object)`,
 *   `controllerOf(object)`, `checkControl(owner, ownerKind, live, { adopt })` (throws
 *   `AlreadyOwnedError` or `NotOwnedError`: the rule a reconcile's `ctx` writes by).
 * - `hasFinalizer(object, name)`, `ensureFinalizer(client, kind, object, name)`,
 *   `removeFinalizer(client, kind, object, name)`: conflict-safe merge patches.
 * - `setCondition(conditions, { type, status, reason, message }, observedGeneration)`,
 *   `removeCondition`, `findCondition`, `isConditionTrue`.
 * - `createOrUpdate(client, kind, object, mutate)` / `createOrPatch(...)` →
 *   `{ result: 'created' | 'updated' | 'unchanged', object }`, as controller-runtime's.
 * - `applyChecked(client, kind, object, check)` / `deleteChecked(...)`: a forced apply or a
 *   delete only of the object `check` accepted (a uid precondition), how `ctx` writes.
 * - `compareQuantities(a, b)`: orders `10Gi`, `1100M`, `500m` exactly, like Go's `Quantity.Cmp`.
 *
 *
 * Imported as `@opgen/runtime/helpers`; `controllerOf`, `setCondition` and
 * `compareQuantities` are also in the root export. A reconcile's `ctx` already owns
 * children and manages finalizers: these are for code outside it.
 *
 * @example
 * import { createOrUpdate, setControllerReference } from '@opgen/runtime/helpers';
 * import { kinds } from '@opgen/runtime';
 *
 * const { result } = await createOrUpdate(
 *   client,
 *   kinds.ConfigMap,
 *   { metadata: { name: 'web', namespace: 'shop' } },
 *   (cm) => {
 *     cm.data = { mode: 'fast' };
 *     setControllerReference(store, BookStore, cm);
 *   },
 * );
 *
 * @module
 */
export { AlreadyOwnedError, checkControl, controllerOf, NotOwnedError, setControllerReference, setOwnerReference } from './owner.js';
export { ensureFinalizer, hasFinalizer, removeFinalizer } from './finalizers.js';
export { findCondition, isConditionTrue, removeCondition, setCondition, type ConditionUpdate } from './conditions.js';
export { compareQuantities } from './quantity.js';
export { createOrPatch, createOrUpdate, type Mutate, type OperationResult } from './create-or-update.js';
export { applyChecked, deleteChecked, type WriteCheck } from './guarded-writes.js';
